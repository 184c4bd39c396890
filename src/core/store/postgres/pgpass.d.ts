/** The `pgpass` package (libpq's ~/.pgpass look-up; it honours PGPASSFILE and refuses a file others can read). */
declare module 'pgpass' {
  interface ConnectionInfo {
    host?: string;
    port?: number | string;
    database?: string;
    user?: string;
  }
  function pgpass(connection: ConnectionInfo, callback: (password: string | undefined) => void): void;
  export default pgpass;
}
