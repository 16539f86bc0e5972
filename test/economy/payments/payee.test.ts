import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN_UPLANETNAME } from '../../../src/config/config.js';
import { PayeeResolver } from '../../../src/economy/payments/payee.js';
import { UserStore } from '../../../src/identity/user-store.js';
import type { EmbeddedRelay } from '../../../src/relay/embedded-relay.js';
import { StationView } from '../../../src/view/station-view.js';
import type { RelayClient } from '../../../streams/relay-client.js';
import { keyFromSecret, newKey, signEvent } from '../../helpers/nostr.js';
import { connectedClient, publish, startTestRelay } from '../../helpers/relay.js';
import { tempDir } from '../../helpers/temp.js';

const REMOTE_WALLET = 'g1N8XBxbXspKQPEUsnmebzBswrf8bEbT7yfo9aWHcZgG9duBQ';
// The same key in its Ğ1 v1 (base58) form, as older profiles publish it.
const COUCOU_V1 = '5fTwfbYUtCeoaFLbyzaBYUcq46nBS26rciWJAkBugqpo';
const COUCOU_SS58 = 'g1LYch17SATt3eb8MhF6VByw6Pd14m7UsYupKLwyCmmRCQTY7';

describe('finding the wallet a like pays', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let relay: EmbeddedRelay;
  let client: RelayClient;
  let users: UserStore;

  beforeAll(async () => {
    dir = await tempDir('payee-');
    relay = await startTestRelay();
    client = await connectedClient(relay.url);
    users = await UserStore.open(join(dir.path, 'game'), { uplanetName: ORIGIN_UPLANETNAME, watch: false });
  });
  afterAll(async () => {
    users.close();
    await client.stop();
    await relay.close();
    await dir.cleanup();
  });

  it("uses a local author's G1PUBNOSTR first", async () => {
    const created = await users.create({ email: 'local@example.org' });
    const author = keyFromSecret(created.keys.nostr.secretKey);
    const view = new StationView();
    view.putProfile(signEvent(author, { kind: 0, content: JSON.stringify({ g1pub: REMOTE_WALLET }) }));
    const resolver = new PayeeResolver({ users, profiles: view, relay: client });
    expect(await resolver.resolve(author.hex)).toEqual({
      hex: author.hex,
      wallet: created.keys.g1.address,
      source: 'local',
    });
  });

  it('asks the relay for a profile the stream has not delivered yet, and converts a v1 key', async () => {
    const author = newKey();
    await publish(
      relay.url,
      signEvent(author, { kind: 0, content: JSON.stringify({ name: 'x', g1pub: COUCOU_V1 }) }),
    );
    const view = new StationView();
    const resolver = new PayeeResolver({ users, profiles: view, relay: client });
    expect(await resolver.resolve(author.hex)).toEqual({
      hex: author.hex,
      wallet: COUCOU_SS58,
      source: 'profile',
    });
    expect(view.profile(author.hex)?.name).toBe('x');
  });

  it('returns null for an author with no wallet anywhere, or a profile naming an invalid one', async () => {
    const invalid = newKey();
    await publish(
      relay.url,
      signEvent(invalid, { kind: 0, content: JSON.stringify({ g1pub: 'g1NotAnAddress' }) }),
    );
    const resolver = new PayeeResolver({ users, profiles: new StationView(), relay: client });
    expect(await resolver.resolve(newKey().hex)).toBeNull();
    expect(await resolver.resolve(invalid.hex)).toBeNull();
  });
});
