// Loads a TypeScript entry of this repository as one compiled module.
//
// Why: run through a loader hook (tsx), every one of the ~400 source modules is resolved and
// loaded by a message round trip to the hook's thread, which costs about 2 s of CPU at each
// start of the CLI or the service. esbuild (the compiler tsx itself uses) bundles the entry's
// own sources into one file in about half a second instead; packages stay outside the bundle and
// load as Node loads them. The bundle is kept under node_modules/.cache/contactline/ with the
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
  const bundle = path.join(CACHE_DIR, `${name}.mjs`);
  const manifest = path.join(CACHE_DIR, `${name}.inputs.json`);
  if (!isFresh(manifest)) {
    try {
      await build(entryFile, bundle, manifest);
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
  return import(pathToFileURL(bundle).href);
}

/** Whether every input recorded for the bundle still has the size and mtime it had. */
function isFresh(manifest) {
  let inputs;
  try {
    inputs = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  } catch {
    return false;
  }
  return Object.entries(inputs).every(([file, stamp]) => {
    try {
      const stat = fs.statSync(file);
      return stamp === `${stat.size}:${stat.mtimeMs}`;
    } catch {
      return false;
    }
  });
}

async function build(entryFile, bundle, manifest) {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [entryFile],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // Class and function names stay as written (errors and logs name them).
    keepNames: true,
    sourcemap: 'linked',
    write: false,
    outfile: bundle,
    // The metafile names inputs relative to this folder; without it, relative to the caller's cwd.
    absWorkingDir: ROOT,
    metafile: true,
    logLevel: 'silent',
    plugins: [ownImportMeta],
  });
  const inputs = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = path.resolve(ROOT, input);
    const stat = fs.statSync(file);
    inputs[file] = `${stat.size}:${stat.mtimeMs}`;
  }
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  // Written under a temporary name and renamed: processes starting together never read half a file.
  for (const out of result.outputFiles) writeAtomically(out.path, out.contents);
  writeAtomically(manifest, JSON.stringify(inputs));
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
