/**
 * The text helpers alone (`@parley/shared/text`): what a process that only reads and cuts text
 * needs (the parser process), without loading every wire schema of the package root.
 */
export * from './sentences.js';
export * from './blocks.js';
export { stripNulCharacters } from '../common/nul-characters.js';
