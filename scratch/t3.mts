import Database from 'better-sqlite3';
const db = new Database(':memory:');
db.exec(`CREATE VIRTUAL TABLE p USING fts5(content, tokenize='porter unicode61 remove_diacritics 2'); INSERT INTO p(rowid, content) VALUES (1,'I tried woodworking for the first time this weekend.'),(2,'I handed in my notice at Tandem Foods today.');`);
for (const q of ['"try"', '"new" OR "hobby" OR "tom" OR "try"', 'tri*', '"leave"', '"company" OR "dara" OR "leave"'])
  console.log(q, db.prepare(`SELECT rowid FROM p WHERE p MATCH ?`).pluck().all(q), db.prepare(`SELECT count(*) FROM p WHERE p MATCH ? AND rowid = ?`).pluck().get(q, 1n));
