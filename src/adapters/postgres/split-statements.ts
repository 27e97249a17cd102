/**
 * The statements of a migration's text, one by one: Citus runs each DDL statement on the workers
 * by its own text, so it refuses a text of several on a distributed schema ("cannot insert multiple
 * commands into a prepared statement"). Splits at semicolons outside quotes, dollar-quoted bodies
 * (`$$ … $$`, `$fn$ … $fn$`) and comments.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'") {
      i = sql.indexOf("'", i + 1);
      while (i !== -1 && sql[i + 1] === "'") i = sql.indexOf("'", i + 2);
      i = i === -1 ? sql.length : i + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
    } else if (c === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0];
      if (tag === undefined) i++;
      else {
        const end = sql.indexOf(tag, i + tag.length);
        i = end === -1 ? sql.length : end + tag.length;
      }
    } else if (c === ';') {
      statements.push(sql.slice(start, i));
      i++;
      start = i;
    } else i++;
  }
  statements.push(sql.slice(start));
  return statements.map((s) => s.trim()).filter((s) => s !== '');
}
