// What the tablet keeps (IndexedDB): the table's key, the table as last read and
// as the terminal has dealt it since, the hand being dealt, and the queue of hands
// waiting for the server. Everything survives a reload, a crash or a flat battery.

import {openDB} from "../../vendor/idb-8.0.4/index.js";

const NAME = "cardroom-terminal";

export async function openStore() {
  const db = await openDB(NAME, 1, {
    upgrade(database) {
      database.createObjectStore("kv");
      database.createObjectStore("outbox", {keyPath: "seq", autoIncrement: true});
    },
  });
  return new Store(db);
}

export class Store {
  constructor(db) {
    this.db = db;
  }

  get(key) {
    return this.db.get("kv", key);
  }

  put(key, value) {
    return this.db.put("kv", value, key);
  }

  delete(key) {
    return this.db.delete("kv", key);
  }

  // Several keys written together, or none.
  async putMany(values) {
    const tx = this.db.transaction("kv", "readwrite");
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) tx.store.delete(key);
      else tx.store.put(value, key);
    }
    await tx.done;
  }

  // The queue, in the order the hands were dealt.
  outbox() {
    return this.db.getAll("outbox");
  }

  // Add `entry` to the queue and write `values` in the same transaction: a hand
  // is queued exactly when the table moves on past it.
  async enqueue(entry, values) {
    const tx = this.db.transaction(["outbox", "kv"], "readwrite");
    const seq = await tx.objectStore("outbox").add(entry);
    for (const [key, value] of Object.entries(values || {})) {
      if (value === undefined) tx.objectStore("kv").delete(key);
      else tx.objectStore("kv").put(value, key);
    }
    await tx.done;
    return seq;
  }

  updateEntry(entry) {
    return this.db.put("outbox", entry);
  }

  async clearAll() {
    const tx = this.db.transaction(["outbox", "kv"], "readwrite");
    tx.objectStore("outbox").clear();
    tx.objectStore("kv").clear();
    await tx.done;
  }
}
