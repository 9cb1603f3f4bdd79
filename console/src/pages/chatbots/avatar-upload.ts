import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { chatbotContract } from '@parley/shared';
import { ApiError } from '../../api/api-client.js';
import { upload } from '../../api/upload.js';
import { PageElement } from '../../app/page-element.js';

const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
const SIDE = 256;
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** Crops an image to its centre square and scales it to 256×256 PNG. */
async function cropToSquare(file: File): Promise<{ blob: Blob; width: number; height: number }> {
  const bitmap = await createImageBitmap(file);
  const side = Math.min(bitmap.width, bitmap.height);
  const canvas = document.createElement('canvas');
  canvas.width = SIDE;
  canvas.height = SIDE;
  canvas.getContext('2d')!.drawImage(bitmap, (bitmap.width - side) / 2, (bitmap.height - side) / 2, side, side, 0, 0, SIDE, SIDE);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('the image could not be converted');
  return { blob, width: bitmap.width, height: bitmap.height };
}

/**
 * @summary Avatar upload: the image is cropped to a centred square of 256×256 in the browser, with
 * its size before and after, then sent to `PUT /v1/chatbot/avatar/{id}`.
 * @event avatar-change - The avatar was uploaded (`detail` is a preview URL of it).
 */
@customElement('avatar-upload')
export class AvatarUpload extends PageElement {
  @property() chatbotId = '';
  @state() private note = '';
  @state() private error = '';
  @state() private progress: number | undefined;

  private async choose(event: Event): Promise<void> {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    this.error = '';
    this.note = '';
    if (!file) return;
    if (file.size >= MAX_AVATAR_BYTES) { this.error = `The image is ${kB(file.size)}; it must be under 5 MB.`; return; }
    try {
      const { blob, width, height } = await cropToSquare(file);
      this.note = `${file.name}: ${width}×${height}, ${kB(file.size)} → cropped to ${SIDE}×${SIDE}, ${kB(blob.size)}.`;
      const form = new FormData();
      form.append('file', blob, 'avatar.png');
      this.progress = 0;
      await upload(chatbotContract.avatar, { params: { id: this.chatbotId } }, form, (fraction) => { this.progress = fraction; });
      this.note += ' Uploaded.';
      this.dispatchEvent(new CustomEvent('avatar-change', { detail: URL.createObjectURL(blob), bubbles: true }));
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : `The image could not be used: ${(err as Error).message}`;
    } finally {
      this.progress = undefined;
      input.value = '';
    }
  }

  override render() {
    return html`<div class="field">
      <label for="avatar-file">Avatar</label>
      <p class="hint" id="avatar-hint">PNG, JPEG, WebP or GIF under 5 MB; cropped to a centred square. It is saved at once.</p>
      <input id="avatar-file" type="file" accept="image/png,image/jpeg,image/webp,image/gif" aria-describedby="avatar-hint" @change=${this.choose}>
      ${this.progress !== undefined ? html`<progress max="1" .value=${this.progress} aria-label="Avatar upload"></progress>` : nothing}
      <p role="status" class="hint">${this.note}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
    </div>`;
  }
}
