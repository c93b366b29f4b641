// An image name split as the engine's tag call takes it (repo, tag), to point a name back at its old image.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitName } from '../../src/engine/image-names.js';

test('image names split into repo and tag as the engine reads them', () => {
  for (const [name, repo, tag] of [
    ['team/app:1', 'team/app', '1'],
    ['team/app', 'team/app', 'latest'],
    ['127.0.0.1:5000/team/app:1', '127.0.0.1:5000/team/app', '1'],
    ['127.0.0.1:5000/team/app', '127.0.0.1:5000/team/app', 'latest'],
    ['dind-bench/registry:debian', 'dind-bench/registry', 'debian'],
    [`team/app@sha256:${'a'.repeat(64)}`, 'team/app', null],
  ])
    assert.deepEqual(splitName(/** @type {string} */ (name)), { repo, tag }, String(name));
});
