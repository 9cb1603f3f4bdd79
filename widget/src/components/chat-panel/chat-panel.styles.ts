import { css } from 'lit';
import { baseStyles } from '../../styles/base.styles.js';

export const styles = [baseStyles, css`
  :host {
    position: fixed;
    bottom: calc(var(--cw-offset) + 68px);
    width: min(400px, calc(100vw - 2 * var(--cw-offset)));
    height: min(640px, calc(100vh - var(--cw-offset) - 100px));
    display: block;
    animation: open 200ms ease-out both;
  }
  :host([hidden]) {
    display: none;
  }
  :host([side='right']) { right: var(--cw-offset); }
  :host([side='left']) { left: var(--cw-offset); }
  :host([mode='page']) {
    position: relative;
    inset: auto;
    width: 100%;
    height: 100%;
    animation: none;
  }
  .panel {
    display: flex;
    flex-direction: column;
    height: 100%;
    overflow: hidden;
    border-radius: 18px;
    background: var(--cw-conversation-bg);
    color: var(--cw-conversation-fg);
    box-shadow: 0 16px 48px rgb(15 23 42 / 0.22), 0 2px 8px rgb(15 23 42 / 0.1);
  }
  :host([mode='page']) .panel {
    border-radius: 0;
    box-shadow: none;
  }
  /* A div, not <header>: inside the host page a second banner landmark would confuse screen readers. */
  .header {
    display: flex;
    align-items: center;
    gap: 10px;
    padding-block: 14px;
    padding-inline: 16px 10px;
    background: var(--cw-header-bg);
    color: var(--cw-header-fg);
  }
  /* The focus ring takes the header's text colour: the accent would be drawn on the accent. */
  .header :focus-visible {
    outline-color: var(--cw-header-fg);
  }
  /* Header actions name themselves: a tooltip on hover and on keyboard focus. */
  .tip {
    position: relative;
    flex: none;
  }
  .tip::after {
    content: attr(data-tip);
    position: absolute;
    inset-block-start: calc(100% + 6px);
    inset-inline-end: 0;
    z-index: 2;
    padding: 5px 9px;
    border-radius: 6px;
    background: #111827;
    color: #ffffff;
    font-size: 12.5px;
    line-height: 1.3;
    white-space: nowrap;
    pointer-events: none;
    opacity: 0;
    transition: opacity 120ms ease 250ms;
  }
  .tip:hover::after, .tip:focus-visible::after {
    opacity: 1;
  }
  .confirm {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px;
    padding: 10px 14px;
    background: #fffbeb;
    color: #78350f;
    border-block-end: 1px solid #fde68a;
    font-size: 14px;
  }
  .confirm p {
    flex: 1 1 100%;
    margin: 0;
  }
  .confirm button {
    padding: 6px 12px;
    border: 1px solid currentColor;
    border-radius: 999px;
    background: transparent;
    font-size: 13.5px;
    font-weight: 600;
  }
  .confirm .danger {
    background: #991b1b;
    border-color: #991b1b;
    color: #ffffff;
  }
  .avatar {
    flex: none;
    width: 38px;
    height: 38px;
    border-radius: 50%;
    object-fit: cover;
    background: rgb(255 255 255 / 0.9);
  }
  .avatar.monogram {
    display: grid;
    place-items: center;
    color: var(--cw-accent);
    font-weight: 700;
    font-size: 17px;
  }
  .titles {
    flex: 1;
    min-width: 0;
  }
  h2 {
    margin: 0;
    font-size: 16px;
    font-weight: 650;
    line-height: 1.25;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .subtitle {
    margin: 2px 0 0;
    font-size: 13px;
    line-height: 1.3;
    opacity: 0.9;
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 2;
    overflow: hidden;
  }
  .body {
    flex: 1;
    min-height: 0;
    display: flex;
    flex-direction: column;
  }
  .badge {
    margin: 0;
    padding: 6px;
    text-align: center;
    font-size: 11.5px;
    color: var(--cw-secondary-fg);
    background: var(--cw-secondary-bg);
    opacity: 0.85;
  }
  .badge strong {
    font-weight: 650;
  }
  @keyframes open {
    from { opacity: 0; transform: translateY(12px) scale(0.98); }
  }
  .notice {
    margin: 8px 0;
    font-size: 13px;
    text-align: center;
  }
  /* Always there (a live region must exist before its text changes to be announced), empty until needed. */
  .notice:empty {
    margin: 0;
  }
  .starters {
    display: flex;
    flex-direction: column;
    align-items: flex-end;
    gap: 6px;
  }
  .starters button {
    max-width: 90%;
    padding: 7px 13px;
    border: 1px solid var(--cw-accent);
    border-radius: 16px;
    background: var(--cw-conversation-bg);
    color: var(--cw-conversation-fg);
    text-align: start;
    font-size: 14px;
  }
  .starters button:hover {
    background: color-mix(in srgb, var(--cw-accent) 10%, var(--cw-conversation-bg));
  }
  /* Phones and short windows (a laptop at 200% zoom): the chat takes the whole screen. */
  @media (max-width: 480px), (max-height: 560px) {
    :host(:not([mode='page'])) {
      inset: 0;
      width: 100%;
      height: 100%;
      z-index: 1;
    }
    .panel {
      border-radius: 0;
    }
  }
`];
