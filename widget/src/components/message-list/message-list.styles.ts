import { css } from 'lit';
import { baseStyles } from '../../styles/base.styles.js';

export const styles = [baseStyles, css`
  :host {
    position: relative;
    flex: 1;
    min-height: 0;
    display: flex;
    flex-direction: column;
  }
  .log {
    flex: 1;
    overflow-y: auto;
    overscroll-behavior: contain;
    padding-block: 16px 8px;
    padding-inline: 14px;
    display: flex;
    flex-direction: column;
    gap: 10px;
    background: var(--cw-conversation-bg);
  }
  .log:focus-visible {
    outline-offset: -2px;
  }
  .row {
    display: flex;
    align-items: flex-start;
    gap: 8px;
    animation: appear 180ms ease-out both;
  }
  .row.user {
    justify-content: flex-end;
  }
  .mini-avatar {
    flex: none;
    width: 26px;
    height: 26px;
    border-radius: 50%;
    object-fit: cover;
    display: grid;
    place-items: center;
    background: var(--cw-header-bg);
    color: var(--cw-header-fg);
    font-size: 12px;
    font-weight: 700;
  }
  .stack {
    display: flex;
    flex-direction: column;
    align-items: flex-start;
    max-width: 82%;
    min-width: 0;
  }
  .row.user .stack {
    align-items: flex-end;
  }
  .message {
    max-width: 100%;
    padding: 9px 13px;
    border-radius: 16px;
    overflow-wrap: anywhere;
  }
  .message.bot {
    background: var(--cw-bot-bg);
    color: var(--cw-bot-fg);
    border-end-start-radius: 5px;
    box-shadow: 0 1px 2px rgb(15 23 42 / 0.06);
  }
  .message.user {
    background: var(--cw-user-bg);
    color: var(--cw-user-fg);
    border-end-end-radius: 5px;
  }
  .message p, .message ul, .message ol, .message pre, .message blockquote {
    margin: 0 0 0.5em;
  }
  .message > :last-child, .content > :last-child {
    margin-block-end: 0;
  }
  .message ul, .message ol {
    padding-inline-start: 1.3em;
  }
  .message a {
    color: inherit;
    text-decoration: underline;
    text-underline-offset: 2px;
  }
  .message code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.88em;
    padding: 0.1em 0.3em;
    border-radius: 4px;
    background: rgb(15 23 42 / 0.07);
  }
  .message pre {
    overflow-x: auto;
    padding: 8px 10px;
    border-radius: 8px;
    background: rgb(15 23 42 / 0.07);
  }
  .message pre code {
    padding: 0;
    background: none;
  }
  .message blockquote {
    padding-inline-start: 10px;
    border-inline-start: 3px solid rgb(15 23 42 / 0.2);
  }
  .message hr {
    border: 0;
    border-block-start: 1px solid rgb(15 23 42 / 0.15);
  }
  /* The streaming caret follows the last line of text. */
  .message.streaming .content > :last-child::after {
    content: '';
    display: inline-block;
    width: 7px;
    height: 1em;
    margin-inline-start: 2px;
    vertical-align: text-bottom;
    background: currentColor;
    opacity: 0.5;
    animation: blink 1s steps(2) infinite;
  }
  .typing {
    display: flex;
    gap: 4px;
    padding: 13px 14px;
  }
  .typing i {
    width: 7px;
    height: 7px;
    border-radius: 50%;
    background: currentColor;
    opacity: 0.35;
    animation: bounce 1.2s infinite ease-in-out;
  }
  .typing i:nth-child(3) { animation-delay: 0.15s; }
  .typing i:nth-child(4) { animation-delay: 0.3s; }
  .error {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 10px;
    padding: 9px 12px;
    border-radius: 12px;
    background: #fef2f2;
    color: #991b1b;
    font-size: 14px;
  }
  .retry {
    display: inline-flex;
    align-items: center;
    gap: 5px;
    padding: 5px 10px;
    border: 1px solid currentColor;
    border-radius: 999px;
    background: transparent;
    font-size: 13px;
    font-weight: 600;
  }
  .retry svg { width: 15px; height: 15px; }
  .message.interrupted {
    border-inline-start: 3px solid #b45309;
  }
  .interrupted-note {
    margin: 6px 0 0;
    font-size: 12.5px;
    font-style: italic;
    opacity: 0.85;
  }
  .message .table {
    overflow-x: auto;
    margin: 0 0 0.5em;
  }
  .message table {
    border-collapse: collapse;
    font-size: 0.93em;
  }
  .message th, .message td {
    padding: 4px 8px;
    border: 1px solid rgb(15 23 42 / 0.18);
    text-align: start;
    vertical-align: top;
  }
  .message th {
    background: rgb(15 23 42 / 0.05);
  }
  .sources {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    margin: 6px 0 0;
    padding: 0;
    list-style: none;
  }
  .source {
    display: inline-flex;
    flex-wrap: wrap;
    align-items: center;
    max-width: 100%;
    border: 1px solid rgb(15 23 42 / 0.18);
    border-radius: 999px;
    background: #ffffff;
    color: #1f2937;
    font-size: 12.5px;
  }
  .source.open {
    border-radius: 12px;
    flex-basis: 100%;
  }
  .chip {
    padding-block: 4px;
    padding-inline: 10px 4px;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    max-width: 15rem;
    color: inherit;
  }
  a.chip {
    color: #1d4ed8;
    text-decoration: none;
  }
  a.chip:hover {
    text-decoration: underline;
  }
  .more {
    width: 24px;
    height: 24px;
    margin-inline-end: 2px;
    padding: 0;
    border: 0;
    border-radius: 50%;
    background: transparent;
    color: inherit;
    font-weight: 700;
  }
  .source blockquote {
    flex-basis: 100%;
    margin: 0;
    padding: 4px 10px 8px;
    color: #374151;
  }
  .jump {
    position: absolute;
    inset-block-end: 10px;
    inset-inline: 0;
    width: max-content;
    margin-inline: auto;
    display: inline-flex;
    align-items: center;
    gap: 6px;
    padding: 6px 12px;
    border: 0;
    border-radius: 999px;
    background: #111827;
    color: #ffffff;
    font-size: 13px;
    box-shadow: 0 4px 14px rgb(15 23 42 / 0.25);
  }
  .jump svg { width: 16px; height: 16px; }
  /* The visitor is writing a 👎 comment near the end: the pill would cover it. */
  .log:has(cw-answer-feedback:focus-within) + .jump { display: none; }
  @keyframes appear { from { opacity: 0; transform: translateY(4px); } }
  @keyframes blink { 50% { opacity: 0; } }
  @keyframes bounce { 0%, 80%, 100% { transform: translateY(0); opacity: 0.35; } 40% { transform: translateY(-4px); opacity: 0.8; } }
`];
