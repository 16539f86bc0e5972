import type { nostr as french } from '../fr/nostr.js';
import { key } from './key.js';
import { position } from './position.js';

export const nostr: typeof french = {
  title: 'Geo-messages',
  intro: 'Publish a NOSTR message attached to your UMAP cell and read those of the cells around it.',
  ...key.page,
  composeTitle: '3. Your message',
  messageLabel: 'Message (2000 characters at most)',
  publish: 'Sign and publish',
  advanced: 'Advanced settings',
  relayLabel: 'NOSTR relay',
  listTitle: 'Messages around you',
  refresh: 'Refresh',
  position: { ...position, title: '2. Position' },
  js: {
    ...key.js,
    needKey: 'Connect your NOSTR key first.',
    needPosition: 'Give a position first.',
    emptyMessage: 'The message is empty.',
    publishing: 'Signing and publishing…',
    published: 'Message published on the relay.',
    notIndexed: 'Message published; the station has not received it yet: refresh in a moment.',
    failed: 'Failed',
    relayUnreachable: 'The relay does not answer:',
    relayRejected: 'The relay refused the message:',
    badRelay: 'The relay address must start with ws:// or wss://.',
    loading: 'Loading…',
    empty: 'No message in these cells yet.',
    around: 'Cells around',
    position: { ...position, title: '2. Position' },
  },
};
