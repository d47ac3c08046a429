import * as assert from 'node:assert/strict';
import { domainToUnicode } from 'node:url';
import { pageParts, unicodeHost } from '../../../src/text/pages';

describe('text/pages', () => {
  it('splits an http(s) URL into its page and its Unicode host', () => {
    assert.deepEqual(pageParts('https://shop.example/pricing?plan=team#faq'), { page: '/pricing?plan=team', host: 'shop.example' });
    assert.deepEqual(pageParts('http://user:secret@127.0.0.1:8787/'), { page: '/', host: '127.0.0.1' });
    assert.deepEqual(pageParts('https://café.example/'), { page: '/', host: 'café.example' });
    assert.equal(pageParts('ftp://files.example/a'), undefined);
    assert.equal(pageParts('https://'), undefined);
    assert.equal(pageParts(''), undefined);
  });

  it('decodes punycode host names as Node does', () => {
    const names = [
      'xn--caf-dma.localhost',
      'xn--bcher-kva.example',
      'xn--mnchen-3ya.de',
      'xn--fiqs8s.xn--fiqz9s',
      'xn--80akhbyknj4f.xn--p1ai',
      'xn--ls8h.la',
      'www.xn--n3h.example',
      'XN--CAF-DMA.example',
      'example.com',
    ];
    for (const name of names) assert.equal(unicodeHost(name), domainToUnicode(name.toLowerCase()), name);
  });

  it('leaves a label that is not valid punycode as it is', () => {
    for (const name of ['xn--.example', 'xn--a-?.example', 'xn--99999999999999.example', 'xn--é.example']) {
      assert.equal(unicodeHost(name), name, name);
    }
  });
});
