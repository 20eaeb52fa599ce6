import { describe, expect, it } from 'vitest';
import { checkIsoUrl, mayFetchFrom } from '../../domain/media/iso-sources.js';

const strict = { allowHttp: false, allowedNetworks: [] };

describe('where an ISO may be fetched from', () => {
  it('takes public addresses only, unless a network is allowed', () => {
    for (const address of ['8.8.8.8', '2001:4860:4860::8888'])
      expect(mayFetchFrom(address, []), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      'not-an-address',
    ])
      expect(mayFetchFrom(address, []), address).toBe(false);
    expect(mayFetchFrom('10.1.2.3', ['10.1.0.0/16'])).toBe(true);
    expect(mayFetchFrom('10.2.2.3', ['10.1.0.0/16'])).toBe(false);
    expect(mayFetchFrom('::ffff:10.1.2.3', ['10.1.0.0/16'])).toBe(true);
  });

  it('takes https URLs to a named or public host; refuses other schemes, credentials, fragments and refused addresses', () => {
    expect(checkIsoUrl('https://cdimage.example.org/a.iso', strict)).toEqual({
      url: 'https://cdimage.example.org/a.iso',
    });
    expect(checkIsoUrl('https://8.8.8.8/a.iso?sig=1', strict)).toEqual({
      url: 'https://8.8.8.8/a.iso?sig=1',
    });
    for (const url of [
      'http://cdimage.example.org/a.iso',
      'ftp://cdimage.example.org/a.iso',
      'file:///etc/passwd',
      'https://user:secret@cdimage.example.org/a.iso',
      'https://cdimage.example.org/a.iso#part',
      'https://127.0.0.1/a.iso',
      'https://2130706433/a.iso',
      'https://0x7f.1/a.iso',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/a.iso',
      'https://[::ffff:7f00:1]/a.iso',
      'https://10.0.0.5/a.iso',
      'https://localhost/a.iso',
      'https://metadata.localhost/a.iso',
      'not a url',
    ])
      expect(typeof checkIsoUrl(url, strict), url).toBe('string');
    expect(checkIsoUrl('http://cdimage.example.org/a.iso', { ...strict, allowHttp: true })).toEqual({
      url: 'http://cdimage.example.org/a.iso',
    });
    expect(checkIsoUrl('https://10.0.0.5/a.iso', { ...strict, allowedNetworks: ['10.0.0.0/24'] })).toEqual({
      url: 'https://10.0.0.5/a.iso',
    });
  });
});
