import * as assert from 'node:assert/strict';
import { switchQuestion } from '../../../src/commands/linkQuestion';

describe("a link's question before switching service", () => {
  it('for a service used before: Switch Service', () => {
    const question = switchQuestion('https://x.example/staging', true);
    assert.equal(question.message, 'Switch to the service at x.example/staging?');
    assert.equal(question.button, 'Switch Service');
  });

  it('for a new path on an origin whose key is stored: the button says the key goes to that path, the detail says whose key', () => {
    const question = switchQuestion('https://shared.example/other-app', false);
    assert.equal(question.message, 'Send the API key of shared.example to /other-app?');
    assert.equal(question.button, 'Send Key to /other-app');
    assert.match(question.detail, /The API key stored for shared\.example will be sent to that path/);
    assert.match(question.detail, /Cancel if you did not expect this link\./);
  });

  it("keeps a hostile path to one short line", () => {
    const question = switchQuestion(`http://127.0.0.1:8787/a\u202e${'x'.repeat(300)}`, false);
    assert.ok(!/[\n\u202e]/.test(question.button + question.message + question.detail));
    assert.ok(question.button.length < 80, question.button);
  });
});
