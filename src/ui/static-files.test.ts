import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { importMap } from './html-shell.ts'
import { StaticFiles, vendorPaths } from './static-files.ts'

test('the client files are served from the web folder with their types', async () => {
  await using dir = tmpDir('sangam-web-')
  const web = join(dir.path, 'web')
  mkdirSync(join(web, 'pages'), { recursive: true })
  writeFileSync(join(web, 'main.js'), 'export {}')
  writeFileSync(join(web, 'pages', 'now.js'), 'export const now = 1')
  writeFileSync(join(web, 'style.css'), 'body {}')
  const files = new StaticFiles(web)
  assert.equal((await files.app('main.js'))?.type, 'text/javascript; charset=utf-8')
  assert.equal((await files.app('style.css'))?.type, 'text/css; charset=utf-8')
  assert.equal(Buffer.from((await files.app('pages/now.js'))?.body ?? []).toString(), 'export const now = 1')
  assert.equal(await files.app('missing.js'), null)
  assert.equal(await files.app('pages'), null, 'a folder is not a file')
})

test('no path leaves the web folder: dot-dot, encoded, absolute, backslashes, NUL', async () => {
  await using dir = tmpDir('sangam-web-')
  const web = join(dir.path, 'web')
  mkdirSync(web)
  writeFileSync(join(dir.path, 'secret.txt'), 'not for the page')
  writeFileSync(join(dir.path, 'web-other.js'), 'a sibling folder with the same prefix')
  const files = new StaticFiles(web)
  for (const path of [
    '../secret.txt',
    '..%2Fsecret.txt',
    '%2e%2e/secret.txt',
    'a/../../secret.txt',
    `${dir.path}/secret.txt`,
    '..\\secret.txt',
    '../web-other.js',
    'main.js%00.css',
    '%E0%A4%A',
    '',
  ]) {
    assert.equal(await files.app(path), null, path)
  }
})

test('every library the import map names is served from its installed package, and nothing else of node_modules', async () => {
  const paths = vendorPaths()
  const files = new StaticFiles('/nonexistent')
  for (const url of Object.values(importMap.imports)) {
    const name = url.replace('/vendor/', '')
    const file = await files.vendor(name)
    assert.ok(file, name)
    assert.equal(file.type, 'text/javascript; charset=utf-8')
    assert.equal(Buffer.from(file.body).toString(), readFileSync(paths.get(name) ?? '', 'utf8'))
    assert.match(Buffer.from(file.body).toString(), /\bexport\b/, `${name} is an ES module`)
  }
  assert.equal((await files.vendor('uplot.css'))?.type, 'text/css; charset=utf-8')
  for (const name of ['package.json', '../package.json', 'zod', 'commander'])
    assert.equal(await files.vendor(name), null)
})
