import { html } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { PageElement } from '../../app/page-element.js';
import '../../components/copy-button.js';

/** @summary The chatbot's embed code and chat link, each with a copy button. */
@customElement('embed-snippet')
export class EmbedSnippet extends PageElement {
  @property() chatbotId = '';

  override render() {
    const origin = location.origin;
    const snippet = `<script src="${origin}/widget.js" data-chatbot-id="${this.chatbotId}" async></script>`;
    const link = `${origin}/chat/${this.chatbotId}`;
    return html`<section class="card" aria-labelledby="embed-heading">
      <h2 id="embed-heading">Put it on your site</h2>
      <p class="hint">Paste this into any page, before <code>&lt;/body&gt;</code>:</p>
      <pre><code>${snippet}</code></pre>
      <copy-button label="Copy embed code" .text=${snippet}></copy-button>
      <p class="hint">Or share the chat link:</p>
      <pre><code>${link}</code></pre>
      <div class="row"><copy-button label="Copy chat link" .text=${link}></copy-button>
        <a href=${link} target="_blank" rel="noopener">Open the chat link</a></div>
    </section>`;
  }
}
