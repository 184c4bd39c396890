// The stopword package (pinned) ships no types: it exports one list of words per language (ISO 639-3 names).
declare module 'stopword' {
  const lists: Readonly<Record<string, readonly string[] | undefined>>;
  export = lists;
}
