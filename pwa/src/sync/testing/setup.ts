// IndexedDB for the sync client's tests in Node: an in-memory fake, one per test file (process).
import 'fake-indexeddb/auto'
