import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/**
 * Where generated documents live. Keys are relative paths ("invoices/<org>/<id>.pdf"). The local
 * implementation writes under DATA_DIR/files; an S3-compatible implementation only needs these
 * three operations (put with a content type, get, delete), so it plugs in without touching callers.
 */
export interface FileStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Stores the file at `sourcePath` (an upload staged on disk) without reading it into memory. */
  putFile(key: string, sourcePath: string, contentType: string): Promise<void>;
  /** null when the key does not exist. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,255}$/;

export function localStorage(root: string): FileStorage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    // Keys are built by the service, but a bad one must never escape the root.
    if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid storage key: ${key}`);
    const p = resolve(join(base, key));
    if (!p.startsWith(base + sep)) throw new Error(`invalid storage key: ${key}`);
    return p;
  };
  return {
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // Write then rename: a reader never sees half a file.
      const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, body);
      await rename(tmp, path);
    },
    async putFile(key, sourcePath) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      await copyFile(sourcePath, tmp);
      await rename(tmp, path);
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

/** In-memory storage for tests and benchmarks that must not touch the disk. */
export function memoryStorage(): FileStorage {
  const files = new Map<string, Buffer>();
  return {
    async put(key, body) {
      files.set(key, body);
    },
    async putFile(key, sourcePath) {
      files.set(key, await readFile(sourcePath));
    },
    async get(key) {
      return files.get(key) ?? null;
    },
    async delete(key) {
      files.delete(key);
    },
  };
}
