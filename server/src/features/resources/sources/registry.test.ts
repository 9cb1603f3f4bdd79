import { ResourceTypeSchema } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { SOURCE_MODULES, sourceModuleOf, sourceTypesWhere, uploadSourceOf } from './registry.js';

describe('the source registry', () => {
  it('has exactly one module for every resource type of the shared enum, under its own type', () => {
    expect(Object.keys(SOURCE_MODULES).sort()).toEqual([...ResourceTypeSchema.options].sort());
    for (const type of ResourceTypeSchema.options) expect(sourceModuleOf(type).type).toBe(type);
  });

  it('reads a row without per-type data (the column default) for every type', () => {
    for (const type of ResourceTypeSchema.options) expect(() => sourceModuleOf(type).schema.parse({})).not.toThrow();
  });

  it('names the syncing and the editable types in the order the API messages use', () => {
    expect(sourceTypesWhere((module) => module.syncs)).toEqual(['WEB', 'HOSTED_VIDEO']);
    expect(sourceTypesWhere((module) => module.editable)).toEqual(['TEXT']);
  });

  it('gives each uploaded type a module that creates it and names its file extension', () => {
    expect(uploadSourceOf('PDF')).toMatchObject({ type: 'PDF', fileExtension: 'pdf' });
    expect(uploadSourceOf('VIDEO')).toMatchObject({ type: 'VIDEO', fileExtension: 'mp4' });
  });
});
