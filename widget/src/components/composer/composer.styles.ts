import { css } from 'lit';
import { baseStyles } from '../../styles/base.styles.js';

export const styles = [baseStyles, css`
  :host {
    position: relative;
    display: block;
    padding-block: 10px 12px;
    padding-inline: 12px;
    background: var(--cw-secondary-bg);
    color: var(--cw-secondary-fg);
    border-block-start: 1px solid rgb(15 23 42 / 0.08);
  }
  form {
    display: flex;
    align-items: flex-end;
    gap: 6px;
    padding-block: 5px;
    padding-inline: 8px 5px;
    border: 1px solid rgb(15 23 42 / 0.14);
    border-radius: 22px;
    background: #ffffff;
    color: #111827;
  }
  form:focus-within {
    border-color: var(--cw-accent);
    box-shadow: 0 0 0 3px color-mix(in srgb, var(--cw-accent) 18%, transparent);
  }
  textarea {
    flex: 1;
    min-width: 0;
    height: 36px;
    max-height: 120px;
    padding-block: 7px;
    padding-inline: 4px;
    border: 0;
    outline: none;
    resize: none;
    background: transparent;
    line-height: 1.4;
    /* 16px or more: iOS Safari zooms the page into smaller inputs on focus. */
    font-size: 16px;
  }
  /* The whole field shows focus (form:focus-within); a second ring inside it would be noise. */
  textarea:focus-visible {
    outline: none;
  }
  textarea::placeholder {
    color: #6b7280;
  }
  .icon-button {
    color: #6b7280;
    border-radius: 50%;
  }
  .action {
    flex: none;
    display: grid;
    place-items: center;
    width: 36px;
    height: 36px;
    border: 0;
    border-radius: 50%;
    background: var(--cw-accent);
    color: var(--cw-accent-fg);
    transition: opacity 120ms ease;
  }
  .action:disabled {
    opacity: 0.4;
    cursor: default;
  }
  .picker {
    position: absolute;
    bottom: calc(100% + 6px);
    inset-inline: 12px;
    max-height: 210px;
    overflow-y: auto;
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(36px, 1fr));
    gap: 2px;
    padding: 8px;
    border-radius: 14px;
    background: #ffffff;
    box-shadow: 0 8px 28px rgb(15 23 42 / 0.2);
  }
  .picker button {
    height: 36px;
    border: 0;
    border-radius: 8px;
    background: transparent;
    font-size: 21px;
    line-height: 1;
    /* Color emoji fonts first: generic fonts carry monochrome outlines of some emoji. */
    font-family: 'Apple Color Emoji', 'Segoe UI Emoji', 'Noto Color Emoji', 'Twemoji Mozilla', sans-serif;
  }
  .picker button:hover {
    background: #f3f4f6;
  }
  .loading {
    padding: 8px;
    color: #6b7280;
  }
`];
