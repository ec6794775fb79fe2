import t from 'tap';
import { SQL_IDENTIFIED_RULE } from '../../../lib/redaction/sql.js';
import { REDACTED } from '../../../lib/redaction/rule.js';

const run = (text: string): string => SQL_IDENTIFIED_RULE.apply(text);
const value = 'Zq8w' + 'Lx3mNv5T';

t.test("the password after IDENTIFIED BY: MySQL's and Oracle's forms", async (t) => {
  t.equal(run(`CREATE USER 'app'@'%' IDENTIFIED BY '${value}';`), `CREATE USER 'app'@'%' IDENTIFIED BY '${REDACTED}';`);
  t.equal(run(`create user app identified by "${value}"`), `create user app identified by "${REDACTED}"`);
  t.equal(run(`ALTER USER scott IDENTIFIED BY ${value};`), `ALTER USER scott IDENTIFIED BY ${REDACTED};`, 'unquoted, as Oracle takes it');
  t.equal(
    run(`CREATE USER 'u'@'localhost' IDENTIFIED WITH caching_sha2_password BY '${value}';`),
    `CREATE USER 'u'@'localhost' IDENTIFIED WITH caching_sha2_password BY '${REDACTED}';`,
  );
  t.equal(run(`GRANT ALL ON db.* TO 'u'@'%' IDENTIFIED BY PASSWORD '*${value}';`), `GRANT ALL ON db.* TO 'u'@'%' IDENTIFIED BY PASSWORD '${REDACTED}';`);
});

t.test('what is no password stays', async (t) => {
  for (const text of [
    "CREATE USER app IDENTIFIED BY '${DB_PASSWORD}';",
    'ALTER USER app IDENTIFIED BY :password;',
    'CREATE USER app IDENTIFIED EXTERNALLY;',
    'The user is identified by their email address.',
    `unidentified by ${value}`,
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test('prose that says identified by: a word, or a code span, is no password', async (t) => {
  for (const text of [
    'Removes the content identified by `integrity`. Any index entries referring to it',
    "in an `Error` being thrown, identified by `'ERR_HTTP_CONTENT_LENGTH_MISMATCH'`.",
    'the method identified by algorithm attempts to generate a digest',
  ]) {
    t.equal(run(text), text, text);
  }
});
