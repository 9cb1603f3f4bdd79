import { css } from 'lit';
import { baseStyles } from '../../styles/base.styles.js';

export const styles = [baseStyles, css`
  :host {
    all: initial;
    /* After \`all: initial\`, which would reset it: every element inside inherits border-box. */
    box-sizing: border-box;
    text-align: start;
    display: block;
    /* A zero-size fixed box: the widget never takes space in (or shifts) the host page. */
    position: fixed;
    bottom: 0;
    left: 0;
    width: 0;
    height: 0;
    z-index: 2147483000;
    font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
    font-size: 15px;
    line-height: 1.45;
    color: #111827;
    --cw-offset: 20px;
  }
  :host([mode='page']) {
    position: relative;
    width: 100%;
    height: 100%;
    z-index: auto;
  }
  .root.page {
    height: 100%;
  }
  .launcher {
    position: fixed;
    bottom: var(--cw-offset);
    width: 56px;
    height: 56px;
    display: grid;
    place-items: center;
    border: 0;
    border-radius: 50%;
    background: var(--cw-header-bg);
    color: var(--cw-header-fg);
    box-shadow: 0 6px 20px rgb(15 23 42 / 0.22), 0 2px 6px rgb(15 23 42 / 0.12);
    transition: transform 160ms ease, box-shadow 160ms ease;
  }
  .launcher:hover {
    transform: scale(1.06);
  }
  .launcher svg {
    width: 26px;
    height: 26px;
  }
  .align-right .launcher { right: var(--cw-offset); }
  .align-left .launcher { left: var(--cw-offset); }
  cw-chat-panel[hidden] {
    display: none;
  }
  .unavailable {
    margin: 2rem auto;
    max-width: 28rem;
    text-align: center;
    color: #4b5563;
  }
`];
