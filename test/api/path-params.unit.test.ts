import { describe, expect, it } from 'vitest';
import { pathParam } from '../../api/routes-kit/path-params.js';

describe("a resource route's path parameter", () => {
  it('is the name between the braces, wherever they sit', () => {
    expect(pathParam('/plans/{plan}')).toBe('plan');
    expect(pathParam('/console/sessions/{session}')).toBe('session');
    expect(pathParam('/instances/{instance}/host-requirements')).toBe('instance');
  });

  it('is refused when the path names two, since the factory would read only one', () => {
    expect(() => pathParam('/instances/{instance}/backups/{backup}')).toThrow('more than one parameter');
  });
});
