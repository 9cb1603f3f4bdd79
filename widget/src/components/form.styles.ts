import { css } from 'lit';

/** Styles shared by the small forms inside the panel (lead form, password gate). */
export const formStyles = css`
  :host {
    flex: 1;
    display: block;
    overflow-y: auto;
    padding: 22px 20px;
    background: var(--cw-conversation-bg);
    color: var(--cw-conversation-fg);
  }
  :host([inline]) {
    flex: none;
    overflow: visible;
    padding: 0;
    background: transparent;
    color: inherit;
  }
  h3 {
    margin: 0 0 6px;
    font-size: 17px;
    font-weight: 650;
  }
  p.hint {
    margin: 0 0 16px;
    font-size: 14px;
    opacity: 0.8;
  }
  label {
    display: block;
    margin: 0 0 12px;
    font-size: 13px;
    font-weight: 600;
  }
  input {
    display: block;
    width: 100%;
    margin-block-start: 5px;
    padding: 10px 12px;
    border: 1px solid rgb(15 23 42 / 0.18);
    border-radius: 10px;
    background: #ffffff;
    color: #111827;
    /* 16px or more: iOS Safari zooms the page into smaller inputs on focus. */
    font-size: 16px;
    font-weight: 400;
  }
  input:focus {
    outline: none;
    border-color: var(--cw-accent);
    box-shadow: 0 0 0 3px color-mix(in srgb, var(--cw-accent) 18%, transparent);
  }
  input[aria-invalid='true'] {
    border-color: #dc2626;
  }
  .primary {
    width: 100%;
    margin-block-start: 6px;
    padding: 11px 14px;
    border: 0;
    border-radius: 10px;
    background: var(--cw-accent);
    color: var(--cw-accent-fg);
    font-weight: 600;
  }
  .primary:disabled {
    opacity: 0.6;
    cursor: default;
  }
  .error {
    margin: 0 0 12px;
    padding: 8px 10px;
    border-radius: 8px;
    background: #fef2f2;
    color: #991b1b;
    font-size: 13.5px;
  }
  .done {
    margin: 0 0 12px;
    padding: 10px 12px;
    border-radius: 10px;
    background: #ecfdf5;
    color: #065f46;
  }
`;
