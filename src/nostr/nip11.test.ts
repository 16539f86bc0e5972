import { describe, expect, it } from 'vitest';
import { NIP11_CORS_HEADERS, NIP11_MEDIA_TYPE, wantsRelayInformation } from './nip11.js';

describe('NIP-11 relay information', () => {
  it('is asked for by the nostr+json media type, alone or among others', () => {
    expect(wantsRelayInformation(NIP11_MEDIA_TYPE)).toBe(true);
    expect(wantsRelayInformation('text/html, application/nostr+json;q=0.9')).toBe(true);
  });

  it('is not what a browser or a WebSocket upgrade asks for', () => {
    expect(wantsRelayInformation(undefined)).toBe(false);
    expect(wantsRelayInformation('text/html,application/xhtml+xml,*/*;q=0.8')).toBe(false);
    expect(wantsRelayInformation('application/json')).toBe(false);
  });

  it('is readable from any origin, with GET and the preflight only', () => {
    expect(NIP11_CORS_HEADERS['access-control-allow-origin']).toBe('*');
    expect(NIP11_CORS_HEADERS['access-control-allow-methods']).toBe('GET, OPTIONS');
  });
});
