import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createTemplate, dropRunDatabases, type TestDatabaseKind } from './test-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseKind: TestDatabaseKind;
    testDatabaseTemplate: string;
    testRunId: string;
  }
}

/** Migrates one template database per run; each test file copies it (fast, isolated). */
export default async function setup(project: TestProject) {
  const kind = (process.env.TEST_DATABASE ?? project.config.env?.TEST_DATABASE ?? 'pglite') as TestDatabaseKind;
  const runId = `${Date.now().toString(36)}${process.pid}`;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-test-'));
  const template = await createTemplate(kind, runId, path.join(dir, 'template.tar'));
  project.provide('testDatabaseKind', kind);
  project.provide('testDatabaseTemplate', template);
  project.provide('testRunId', runId);
  return async () => {
    if (kind === 'postgres') await dropRunDatabases(runId);
    await fs.rm(dir, { recursive: true, force: true });
  };
}
