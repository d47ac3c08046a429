/**
 * The accounts part's pure pieces: a service's label, the index of origins with a key (global
 * state, origins only) kept in line with SecretStorage, and the list of known services. Global
 * state and SecretStorage are in-memory stand-ins with VS Code's interface.
 */
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import {
  deleteKey,
  indexedOrigins,
  originOfSecretKey,
  readKey,
  secretKeyFor,
  storeKey,
} from '../../../src/services/keyIndex';
import { GlobalStateKey } from '../../../src/ids';
import { forgetService, knownServices, rememberService } from '../../../src/services/knownServices';
import { originOf, serviceLabel, serviceName } from '../../../src/services/labels';

class MemoryMemento implements vscode.Memento {
  readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T {
    return (this.values.has(key) ? this.values.get(key) : defaultValue) as T;
  }
  update(key: string, value: unknown): Thenable<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

class MemorySecrets {
  readonly values = new Map<string, string>();
  get(key: string): Thenable<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }
  store(key: string, value: string): Thenable<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
  delete(key: string): Thenable<void> {
    this.values.delete(key);
    return Promise.resolve();
  }
}

const asSecrets = (s: MemorySecrets): vscode.SecretStorage => s as unknown as vscode.SecretStorage;

describe('accounts: service labels', () => {
  it('is the host with its port for https: and loopback http:, the whole origin for any other', () => {
    assert.equal(serviceLabel('https://reports.example.com'), 'reports.example.com');
    assert.equal(serviceLabel('https://reports.example.com:443'), 'reports.example.com');
    assert.equal(serviceLabel('https://reports.example.com:8443'), 'reports.example.com:8443');
    assert.equal(serviceLabel('http://127.0.0.1:8787'), '127.0.0.1:8787');
    assert.equal(serviceLabel('http://localhost:8787'), 'localhost:8787');
    assert.equal(serviceLabel('http://[::1]:8787'), '[::1]:8787');
    assert.equal(serviceLabel('http://example.com'), 'http://example.com');
    assert.equal(serviceLabel('http://shop.localhost:8787'), 'http://shop.localhost:8787', '*.localhost is another machine');
    assert.equal(serviceLabel('https://127.0.0.1:8787'), 'https://127.0.0.1:8787');
    assert.equal(serviceLabel('https://bücher.example'), 'xn--bcher-kva.example', 'ASCII');
  });

  it('depends on the origin alone: a later service cannot take a label, and the trust given to it, from another', () => {
    // VS Code keys the extensions allowed to read an account by its label: one label per origin.
    const origins = ['http://example.com', 'https://example.com', 'http://127.0.0.1:8787', 'https://127.0.0.1:8787'];
    const labels = origins.map((origin) => serviceLabel(origin));
    assert.equal(new Set(labels).size, origins.length, labels.join(', '));
    // Whatever else is known, each name starts with its origin's label.
    assert.equal(serviceName('http://example.com/a', ['https://example.com']), 'http://example.com');
    assert.equal(serviceName('https://example.com', ['http://example.com']), 'example.com');
    assert.equal(serviceName('https://example.com'), 'example.com');
  });

  it('names a service by its host, with its path only when another known service shares its origin', () => {
    const known = ['https://x.example/staging', 'https://x.example/prod/', 'https://x.example', 'https://y.example/team'];
    assert.equal(serviceName('https://x.example/staging', known), 'x.example/staging');
    assert.equal(serviceName('https://x.example/prod', known), 'x.example/prod', 'a trailing slash is no other path');
    assert.equal(serviceName('https://x.example', known), 'x.example', 'the root of the origin');
    assert.equal(serviceName('https://y.example/team', known), 'y.example', 'alone on its origin');
    assert.equal(serviceName('https://y.example/team/', ['https://y.example/team']), 'y.example', 'itself, as typed');
    assert.equal(serviceName('https://z.example/a'), 'z.example');
    const schemes = ['http://x.example/a', 'https://x.example/a', 'https://x.example/b'];
    assert.equal(serviceName('http://x.example/a', schemes), 'http://x.example', 'the scheme tells it apart');
    assert.equal(serviceName('https://x.example/a', schemes), 'x.example/a');
    assert.equal(serviceName('not a url', known), 'not a url');
  });

  it('gives the origin of a URL, or undefined for what is not one', () => {
    assert.equal(originOf('https://reports.example.com/base/'), 'https://reports.example.com');
    assert.equal(originOf('not a url'), undefined);
    assert.equal(originOf(undefined), undefined);
  });
});

describe('accounts: the index of origins with keys', () => {
  it('names each origin its own secret, and reads the origin back', () => {
    assert.equal(secretKeyFor('https://a.example'), 'pageReports.apiKey:https://a.example');
    assert.equal(originOfSecretKey('pageReports.apiKey:https://a.example'), 'https://a.example');
    assert.equal(originOfSecretKey('something.else'), undefined);
  });

  it('lists origins only, never a key, as keys are stored and deleted', async () => {
    const memento = new MemoryMemento();
    const secrets = new MemorySecrets();
    await storeKey(asSecrets(secrets), memento, 'https://a.example', 'key-a-secret');
    await storeKey(asSecrets(secrets), memento, 'http://127.0.0.1:8787', 'key-b-secret');
    assert.deepEqual(indexedOrigins(memento), ['https://a.example', 'http://127.0.0.1:8787']);
    assert.ok(!JSON.stringify([...memento.values]).includes('secret'), 'global state holds no key');
    await deleteKey(asSecrets(secrets), memento, 'https://a.example');
    assert.deepEqual(indexedOrigins(memento), ['http://127.0.0.1:8787']);
    assert.equal(secrets.values.has(secretKeyFor('https://a.example')), false);
    assert.equal(secrets.values.get(secretKeyFor('http://127.0.0.1:8787')), 'key-b-secret');
  });

  it('is repaired by every read: a key written by another window joins, a deleted one leaves', async () => {
    const memento = new MemoryMemento();
    const secrets = new MemorySecrets();
    secrets.values.set(secretKeyFor('https://elsewhere.example'), 'k');
    assert.equal(await readKey(asSecrets(secrets), memento, 'https://elsewhere.example'), 'k');
    assert.deepEqual(indexedOrigins(memento), ['https://elsewhere.example']);
    secrets.values.delete(secretKeyFor('https://elsewhere.example'));
    assert.equal(await readKey(asSecrets(secrets), memento, 'https://elsewhere.example'), undefined);
    assert.deepEqual(indexedOrigins(memento), []);
  });

  it('ignores a malformed index', () => {
    const memento = new MemoryMemento();
    memento.values.set(GlobalStateKey.originsWithKey, ['https://a.example', 42, null]);
    assert.deepEqual(indexedOrigins(memento), ['https://a.example']);
    memento.values.set(GlobalStateKey.originsWithKey, 'nonsense');
    assert.deepEqual(indexedOrigins(memento), []);
  });
});

describe('accounts: known services', () => {
  it('lists each URL once, most recently used first, and forgets one on request', async () => {
    const memento = new MemoryMemento();
    await rememberService(memento, 'https://a.example', 100);
    await rememberService(memento, 'https://b.example', 200);
    await rememberService(memento, 'https://a.example', 300);
    await rememberService(memento, 'https://c.example');
    assert.deepEqual(
      knownServices(memento).map((s) => [s.url, s.lastUsed]),
      [
        ['https://a.example', 300],
        ['https://b.example', 200],
        ['https://c.example', 0],
      ],
    );
    await forgetService(memento, 'https://b.example');
    assert.deepEqual(
      knownServices(memento).map((s) => s.url),
      ['https://a.example', 'https://c.example'],
    );
  });
});
