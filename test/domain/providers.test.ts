import { describe, expect, it } from 'vitest';
import { endpointProblem } from '../../domain/providers.js';

describe('a provider endpoint', () => {
  it('is an https URL, or an http one where plain HTTP is allowed', () => {
    expect(endpointProblem('https://ipam.example.net/api/v1', false)).toBeNull();
    expect(endpointProblem('http://10.0.0.5:8080/', false)).toBe('Must be an https:// URL.');
    expect(endpointProblem('http://10.0.0.5:8080/', true)).toBeNull();
    expect(endpointProblem('ftp://files.example.net/', true)).toBe('Must be an https:// or http:// URL.');
    expect(endpointProblem('/relative', false)).toBe('Must be an absolute URL.');
  });

  it('carries no secret where it would be shown: no user, password, query or fragment', () => {
    for (const url of [
      'https://user@example.net/',
      'https://user:secret@example.net/',
      'https://:secret@example.net/',
    ])
      expect(endpointProblem(url, false)).toMatch(/user name or password/);
    // An empty query or fragment is refused too: the URL parser would drop it, the text would keep it.
    for (const url of [
      'https://example.net/?token=x',
      'https://example.net/?',
      'https://example.net/#a',
      'https://example.net/#',
    ])
      expect(endpointProblem(url, false)).toBe('Must not carry a query or fragment.');
  });
});
