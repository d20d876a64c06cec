/** Storage's public face: the content-addressed blob store, the data directory lock and its file modes. */
export { type BlobHolder, type BlobStorage, BlobStore, type StoredBlob } from './blob-store'
export { DataDirLockedError, lockDataDir } from './data-dir-lock'
export { DATA_FILE_MODE, tightenDataDir } from './data-dir-modes'
