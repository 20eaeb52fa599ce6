import { describe, expect, it } from 'vitest';
import { checkChecksum, imageSourceFor } from '../../domain/image-versions.js';

const image = { code: 'imported' };
const version = (id: string, n: number, ready: string[], deprecated = false) => ({
  id,
  version: n,
  deprecated,
  readyHypervisorIds: ready,
});

describe('the version an order of an image takes', () => {
  it('is the image’s own files by code when it has no versions', () => {
    expect(imageSourceFor(image, [], 1)).toEqual({
      ok: true,
      versionId: null,
      storeName: 'imported',
      hypervisorIds: null,
    });
  });

  it('is the newest version not deprecated and held ready by enough hypervisors, placed only on those', () => {
    const versions = [
      version('a', 1, ['h1', 'h2']),
      version('b', 2, ['h1']),
      version('c', 3, ['h1', 'h2'], true),
    ];
    expect(imageSourceFor(image, versions, 1)).toMatchObject({
      versionId: 'b',
      storeName: 'b',
      hypervisorIds: ['h1'],
    });
    expect(imageSourceFor(image, versions, 2)).toMatchObject({ versionId: 'a', hypervisorIds: ['h1', 'h2'] });
    expect(imageSourceFor(image, versions, 3)).toMatchObject({ ok: false, code: 'IMAGE_NOT_AVAILABLE' });
  });

  it('is none when every version is deprecated or held nowhere, whatever the minimum says', () => {
    expect(imageSourceFor(image, [version('a', 1, [])], 0)).toMatchObject({
      ok: false,
      code: 'IMAGE_NOT_AVAILABLE',
    });
    expect(imageSourceFor(image, [version('a', 1, ['h1'], true)], 1)).toMatchObject({ ok: false });
  });
});

describe('a checksum', () => {
  it('is its algorithm’s length in hex, kept in lower case', () => {
    expect(checkChecksum('sha256', 'AB'.repeat(32))).toEqual({ checksum: 'ab'.repeat(32) });
    expect(checkChecksum('sha512', 'ab'.repeat(64))).toEqual({ checksum: 'ab'.repeat(64) });
    expect(typeof checkChecksum('sha512', 'ab'.repeat(32))).toBe('string');
    expect(typeof checkChecksum('sha256', 'g'.repeat(64))).toBe('string');
  });
});
