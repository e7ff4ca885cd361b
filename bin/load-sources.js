// Loads a TypeScript entry of this repository compiled by esbuild (docs/decisions/0036).
//
// Why: run through a loader hook (tsx), every one of the ~400 source modules is resolved and
// loaded by a message round trip to the hook's thread, which costs about 2 s of CPU at each
// start of the CLI or the service. esbuild (the compiler tsx itself uses) bundles the entry's
// own sources in about half a second instead; packages stay outside the bundle and load as Node
// loads them. The bundle is kept under node_modules/.cache/contactline/ with the
// size and mtime of every source it was built from, and is used again while none has changed,
// so a start after an edit rebuilds and any other start only checks those files.
//
// Each source keeps its own `import.meta.url` (replaced by the file's URL at build time), so
// paths relative to a source file (migrations, assets, package.json) resolve as they do unbundled.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Inside node_modules: the bundle's package imports resolve from where it lies.
const CACHE_DIR = path.join(ROOT, 'node_modules/.cache/contactline');

/** Imports `entry` (a path relative to the repository root) from its up-to-date bundle. */
export async function loadSources(entry) {
  const entryFile = path.resolve(ROOT, entry);
  const name = `${path.basename(entry, '.ts')}-${crypto.createHash('sha256').update(entryFile).digest('hex').slice(0, 8)}`;
  const manifest = path.join(CACHE_DIR, `${name}.build.json`);
  let built = freshBuild(manifest);
  if (!built) {
    try {
      built = await build(entryFile, path.join(CACHE_DIR, name), manifest);
    } catch (error) {
      // No writable cache (a read-only install): run the sources through tsx's loader instead.
      if (!['EACCES', 'EPERM', 'EROFS'].includes(error?.code)) throw error;
      const { register } = await import('tsx/esm/api');
      register();
      return import(pathToFileURL(entryFile).href);
    }
  }
  // The bundle links a source map; stacks name the TypeScript sources under
  // NODE_OPTIONS=--enable-source-maps (off by default: reading the map costs ~0.5 s a start).
  return import(pathToFileURL(path.join(CACHE_DIR, built.entry)).href);
}

/** The manifest's build while every input recorded still has the size and mtime it had; else null. */
function freshBuild(manifest) {
  let built;
  try {
    built = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  } catch {
    return null;
  }
  const fresh = Object.entries(built.inputs ?? {}).every(([file, stamp]) => {
    try {
      const stat = fs.statSync(file);
      return stamp === `${stat.size}:${stat.mtimeMs}`;
    } catch {
      return false;
    }
  });
  return fresh && typeof built.entry === 'string' ? built : null;
}

/** A build outlives the next one by this long before it is removed (a process may still load its chunks). */
const SUPERSEDED_KEPT_MS = 60 * 60_000;

async function build(entryFile, outdir, manifest) {
  const esbuild = await import('esbuild');
  // esbuild builds in a child process of its own, which would otherwise live as long as this one.
  const result = await esbuild
    .build({
      entryPoints: [entryFile],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      // Each `import()` of a source becomes a chunk of its own, loaded when the import runs, so the
      // packages only it uses load then too: a CLI command loads the server only to serve.
      splitting: true,
      // Content-hashed names: a build never overwrites a file another process may be loading.
      entryNames: '[name]-[hash]',
      chunkNames: 'chunk-[hash]',
      outExtension: { '.js': '.mjs' },
      // Class and function names stay as written (errors and logs name them).
      keepNames: true,
      sourcemap: 'linked',
      write: false,
      outdir,
      // The metafile names inputs relative to this folder; without it, relative to the caller's cwd.
      absWorkingDir: ROOT,
      metafile: true,
      logLevel: 'silent',
      plugins: [ownImportMeta],
    })
    .finally(() => esbuild.stop());
  const inputs = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = path.resolve(ROOT, input);
    const stat = fs.statSync(file);
    inputs[file] = `${stat.size}:${stat.mtimeMs}`;
  }
  fs.mkdirSync(outdir, { recursive: true });
  // Written under a temporary name and renamed: processes starting together never read half a file.
  for (const out of result.outputFiles) writeAtomically(out.path, out.contents);
  // (A chunk of an `import()` names the imported source as its entryPoint too.)
  const [entryOut] = Object.entries(result.metafile.outputs).find(
    ([, output]) => output.entryPoint && path.resolve(ROOT, output.entryPoint) === entryFile,
  );
  const built = { entry: path.relative(CACHE_DIR, path.resolve(ROOT, entryOut)), inputs };
  writeAtomically(manifest, JSON.stringify(built));
  // "Now" is the file system's: the manifest's mtime. A process under faketime (CI's run 400 days
  // ahead) would otherwise see every file as old, and remove another process's file mid-write.
  removeSuperseded(
    outdir,
    new Set(result.outputFiles.map((out) => path.basename(out.path))),
    fs.statSync(manifest).mtimeMs,
  );
  return built;
}

/** Removes the files of earlier builds that this one superseded more than an hour ago (by the file system's clock, `now`). */
function removeSuperseded(outdir, current, now) {
  const before = now - SUPERSEDED_KEPT_MS;
  for (const file of fs.readdirSync(outdir)) {
    if (current.has(file)) continue;
    const full = path.join(outdir, file);
    try {
      if (fs.statSync(full).mtimeMs < before) fs.rmSync(full, { force: true });
    } catch {
      // Removed meanwhile by another process's build.
    }
  }
}

function writeAtomically(file, contents) {
  const temporary = `${file}.${process.pid}.${crypto.randomUUID()}`;
  fs.writeFileSync(temporary, contents);
  fs.renameSync(temporary, file);
}

/** esbuild plugin: each TypeScript source's (.ts, .tsx) `import.meta.url`/`dirname`/`filename` become its own. */
const ownImportMeta = {
  name: 'own-import-meta',
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, (args) => {
      const source = fs.readFileSync(args.path, 'utf8');
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};
