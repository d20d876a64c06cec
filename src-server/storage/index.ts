/** Storage's public face: the content-addressed blob store and the data directory lock. */
export { type BlobHolder, BlobStore, type StoredBlob } from './blob-store'
export { DataDirLockedError, lockDataDir } from './data-dir-lock'
