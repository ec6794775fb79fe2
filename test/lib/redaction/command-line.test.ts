import t from 'tap';
import { COMMAND_FLAG_RULE, COMMAND_PASSWORD_RULE } from '../../../lib/redaction/command-line.js';
import { REDACTED } from '../../../lib/redaction/rule.js';
import { redactText } from '../../../lib/redaction/text.js';

const run = (text: string): string => COMMAND_PASSWORD_RULE.apply(COMMAND_FLAG_RULE.apply(text));
const value = 'q8Zt' + 'x2Lm' + 'P4wr';

t.test('a sensitive flag, then its value as the next argument', async (t) => {
  t.equal(run(`mysql -u root --password ${value} app`), `mysql -u root --password ${REDACTED} app`);
  t.equal(run(`vault login --token "${value}"`), `vault login --token "${REDACTED}"`);
  t.equal(run(`tool --api-key '${value}' --verbose`), `tool --api-key '${REDACTED}' --verbose`);
  t.equal(run(`gh auth --client-secret ${value}; echo ok`), `gh auth --client-secret ${REDACTED}; echo ok`);
});

t.test('short options that take a password', async (t) => {
  t.equal(run(`mysql -h db -u root -p${value} app`), `mysql -h db -u root -p${REDACTED} app`);
  t.equal(run(`mysqldump -p'${value}' app > dump.sql`), `mysqldump -p'${REDACTED}' app > dump.sql`);
  t.equal(run(`sshpass -p '${value}' ssh me@host`), `sshpass -p '${REDACTED}' ssh me@host`);
  t.equal(run(`redis-cli -h cache -a ${value} ping`), `redis-cli -h cache -a ${REDACTED} ping`);
  t.equal(run(`docker login -u me -p ${value} registry.io`), `docker login -u me -p ${REDACTED} registry.io`);
  t.equal(run(`curl -u alice:${value} https://api.example.com/`), `curl -u alice:${REDACTED} https://api.example.com/`);
  t.equal(run(`curl --user "alice:${value}" https://api.example.com/`), `curl --user "alice:${REDACTED}" https://api.example.com/`);
});

t.test('what is not a password stays', async (t) => {
  for (const text of [
    'mysql -u root -p app', // -p alone prompts for it
    'mkdir -p build/output/directory',
    'docker run -p 8080:8080 -u 1000:1000 image',
    'git push -u origin feature/long-branch-name',
    'tool --password-file secrets.txt --token $TOKEN',
    'tool --token "${GITHUB_TOKEN}" --api-key --verbose',
    'ls -a somedirectory',
    'echo mysql; cp -pR source destination',
    'curl -u "$USER:$PASSWORD" https://example.com',
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test('through redactText, and a second pass changes nothing', async (t) => {
  const text = `run: mysql -u root -p${value} && curl -u bob:${value} https://h/ --token ${value}`;
  const once = redactText(text);
  t.notOk(once.includes(value));
  t.equal(redactText(once), once);
});
