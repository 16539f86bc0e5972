import type { g1 as french } from '../fr/g1.js';
import { keys } from './keys.js';
import { position } from './position.js';

export const g1: typeof french = {
  title: 'Registration',
  intro:
    'Create your UPlanet identity: a NOSTR key and a Ğ1 wallet, tied to your UMAP cell when you give a position.',
  emailLabel: 'Your e-mail',
  credentialsTitle: 'Ğ1 credentials (optional)',
  credentialsHint:
    'Give a salt AND a pepper to derive your keys from them (the same as the station’s keygen tool); leave both empty for random ones. 1 to 128 visible ASCII characters, no spaces.',
  salt: 'Salt (secret identifier)',
  pepper: 'Pepper (password)',
  register: 'Create my identity',
  position: position,
  js: {
    registering: 'Creating your identity…',
    failed: 'Failed',
    badEmail: 'Type a valid e-mail address (name@domain.org).',
    bothOrNeither: 'Give both the salt and the pepper, or neither.',
    badCredential: 'The salt and the pepper are 1 to 128 visible ASCII characters, no spaces.',
    cellTitle: 'Your UMAP cell',
    noCell: 'No position given: you can add one later.',
    keys: keys,
    position: position,
  },
};
