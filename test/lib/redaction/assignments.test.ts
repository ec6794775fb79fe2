import t from 'tap';
import { ASSIGNMENT_RULE } from '../../../lib/redaction/assignments.js';
import { REDACTED } from '../../../lib/redaction/rule.js';
import { weighCalls } from '../../helpers/counting.js';

const run = (text: string): string => ASSIGNMENT_RULE.apply(text);
const value = 'q8Zt' + 'x2Lm' + 'P4wr';

t.test('shell, .env and CLI forms', async (t) => {
  t.equal(run(`export OPENAI_API_KEY=${value}`), `export OPENAI_API_KEY=${REDACTED}`);
  t.equal(run(`OPENAI_API_KEY="${value}" zero exec`), `OPENAI_API_KEY="${REDACTED}" zero exec`);
  t.equal(run(`DB_PASSWORD='${value}'\nDB_HOST=localhost`), `DB_PASSWORD='${REDACTED}'\nDB_HOST=localhost`);
  t.equal(run('DB_PASSWORD=correcthorse'), `DB_PASSWORD=${REDACTED}`, 'bare words are values in env lines');
  t.equal(run(`mysql --password=${value} -u root`), `mysql --password=${REDACTED} -u root`);
  t.equal(run(`spring.datasource.password=${value}`), `spring.datasource.password=${REDACTED}`);
  t.equal(run('PASSWORD=myexamplepassword99'), `PASSWORD=${REDACTED}`, "a placeholder's word in a chosen password");
  t.equal(run('POSTGRES_PASSWORD=changeme2024'), `POSTGRES_PASSWORD=${REDACTED}`);
  t.equal(run('API_KEY=your-api-key-here'), 'API_KEY=your-api-key-here', 'a placeholder stays');
});

t.test('YAML, JSON and code forms', async (t) => {
  t.equal(run('password: hunter2hunter2'), `password: ${REDACTED}`);
  t.equal(run(`{"apiKey": "${value}", "model": "gpt"}`), `{"apiKey": "${REDACTED}", "model": "gpt"}`);
  t.equal(run(`{'client_secret': '${value}'}`), `{'client_secret': '${REDACTED}'}`);
  t.equal(run(`const token = "${value}";`), `const token = "${REDACTED}";`);
  t.equal(run(`token := \`${value}\``), `token := \`${REDACTED}\``);
  t.equal(run(`'api_key' => '${value}',`), `'api_key' => '${REDACTED}',`);
  t.equal(run(`secret: "it's a long one"`), `secret: "${REDACTED}"`, 'other quote kinds inside');
  t.equal(run(`x-api-key: ${value}`), `x-api-key: ${REDACTED}`);
  t.equal(run(`password: ${value}, user: bob`), `password: ${REDACTED}, user: bob`);
  t.equal(run(`"password": "q8Zt\\"${value}", "user": "bob"`), `"password": "${REDACTED}", "user": "bob"`, 'an escaped quote inside the value');
  t.equal(run('  POSTGRES_PASSWORD: correcthorsebattery'), `  POSTGRES_PASSWORD: ${REDACTED}`, "a capitalised name's bare word (docker-compose)");
  t.equal(run('const opts = { password: userPassword }'), 'const opts = { password: userPassword }', "a lowercase name's bare word is code");
  t.equal(run(`AccountName=store;AccountKey=${value}==;EndpointSuffix=core`), `AccountName=store;AccountKey=${REDACTED};EndpointSuffix=core`, 'an Azure connection string');
});

t.test('only the value goes; several per line', async (t) => {
  t.equal(
    run(`TOKEN=${value} SECRET=${value}x ./deploy.sh`),
    `TOKEN=${REDACTED} SECRET=${REDACTED} ./deploy.sh`,
  );
});

t.test('a long bare value goes whole', async (t) => {
  t.equal(run(`TOKEN=${'x9'.repeat(3000)} next`), `TOKEN=${REDACTED} next`);
});

t.test('a declined match does not hide a later one inside it', async (t) => {
  t.equal(run(`note=password=${value}`), `note=password=${REDACTED}`);
  t.equal(run(`password=notes:token=${value}`), `password=${REDACTED}`, 'the outer value wins when it is a literal');
});

t.test('an unterminated quote still hides the value', async (t) => {
  t.equal(run(`password: "${value}`), `password: "${REDACTED}`);
});

t.test('code and references stay', async (t) => {
  for (const text of [
    'const token = await loadCredential(profile);',
    'let password = prompt("Password: ");',
    'const apiKey = process.env.OPENAI_API_KEY;',
    'api_key = os.environ["OPENAI_API_KEY"]',
    'api_key = os.getenv("OPENAI_API_KEY")',
    'export GITHUB_TOKEN=$GH_TOKEN',
    'TOKEN="${GITHUB_TOKEN}"',
    'token: ${{ secrets.GITHUB_TOKEN }}',
    'password = userPassword',
    '{ token: accessToken }',
    'apiKey: string;',
    'password?: string',
    'token: null', 'secret = undefined', 'password: true',
    'if (token === expectedToken1) {',
    'tokens.map((token) => token.trim())',
    'password=short',
    'password: [REDACTED]',
    'OPENAI_API_KEY=<your-key-here>',
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test('ordinary text stays', async (t) => {
  for (const text of [
    'promptTokens: 12', 'max_tokens=4096', 'token_count: 123456789', 'tokenizer: cl100k_base_v2',
    'task-list: done', 'risk-level: medium-high', 'sessionId: zero_20261130053326_ab12cd',
    'Your password:\n  must be long', 'keyboard: mechanical-switches',
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test('idempotent', async (t) => {
  const once = run(`A_TOKEN=${value} "password": "${value}" secret: ${value}`);
  t.equal(run(once), once);
});

t.test('code and docs found by the false-positive scan stay', async (t) => {
  for (const text of [
    'const apiKey = profile?.apiKey ?? (profile?.baseURL ? undefined : env[`${prefix}_API_KEY`]) ?? undefined;',
    "const workSecret = opts?.workSecret || readEnv('ANTHROPIC_WORK_SECRET') || null;",
    "export const GRANT_TYPE_REFRESH_TOKEN = 'refresh_token';",
    "authorization_token: 'ghp_exampletoken',",
    '"You can avoid this error by creating an ephemeral session token:\\nhttps://platform.example.com/docs\\n",',
    ' * `--password=`, is allowed) and may hold dots and dashes (`db.password`, `x-api-key`).',
    ' * `Cookie:` and `Set-Cookie:` headers (and curl\'s `--cookie`): each cookie',
    "'--token=' + value",
    'this._noAuthorization = !req.headers.authorization;',
    "const UNEXPECTED_TOKEN = /^Unexpected token '?(.)'?(,)? /i",
    'export declare function pbkdf2(password: Uint8Array, salt: Uint8Array): Uint8Array;',
    'fetch(H,{credentials:"same-origin"})',
    '{"Authorization": "Bearer YOUR_TOKEN"}',
    'OPENAI_API_KEY=YOUR_API_KEY', 'password: xxxxxxxx', 'token: "your-token-here"',
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test('a value after a scheme word is judged without it', async (t) => {
  t.equal(run(`"authorization": "Bearer ${value}"`), `"authorization": "${REDACTED}"`);
  t.equal(run('"authorization": "Bearer short"'), '"authorization": "Bearer short"', 'the header rule judges short tokens');
});

t.test('cookie lists under a Cookie header are left to the cookie rule', async (t) => {
  t.equal(run('Cookie: theme=darkmode'), 'Cookie: theme=darkmode');
  t.equal(run(`{"cookie": "${value} and more"}`), `{"cookie": "${REDACTED}"}`, 'not a cookie list: judged here');
  t.equal(run(`cookie=${value}`), `cookie=${REDACTED}`, 'an assignment, not a header');
});

// JSON inside a JSON string (a configmap, a log line's body, a HAR file) quotes with `\"`: nothing was redacted.
t.test('names and values quoted \\"…\\" (JSON inside a JSON string)', async (t) => {
  t.equal(
    run(String.raw`{"body":"{\n  \"password\": \"Pa55w0rdXyz9\",\n  \"apiKey\": \"Zz9Yy8Xx7Ww6Vv5\",\n  \"n\": \"x\"\n}"}`),
    String.raw`{"body":"{\n  \"password\": \"${REDACTED}\",\n  \"apiKey\": \"${REDACTED}\",\n  \"n\": \"x\"\n}"}`,
  );
  t.equal(run(String.raw`{\"DB_PASS\":\"Pa55w0rdXyz9\",\"n\":1}`), String.raw`{\"DB_PASS\":\"${REDACTED}\",\"n\":1}`);
  for (const kept of [String.raw`{\"token\": \"$TOKEN\", \"password\": \"\"}`, String.raw`{\"token_count\": \"12345678901\"}`]) {
    t.equal(run(kept), kept, 'references, empty values and ordinary names stay');
  }
});

t.test('a name as a subscript: os.environ, a PHP array, a Ruby hash', async (t) => {
  t.equal(run(`os.environ["OPENAI_API_KEY"] = "${value}"`), `os.environ["OPENAI_API_KEY"] = "${REDACTED}"`);
  t.equal(run(`$config['db_password'] = '${value}';`), `$config['db_password'] = '${REDACTED}';`);
  t.equal(run(`ENV[:api_token] = '${value}'`), `ENV[:api_token] = '${REDACTED}'`);
  t.equal(run('os.environ["API_KEY"] = os.getenv("OTHER")'), 'os.environ["API_KEY"] = os.getenv("OTHER")', 'code stays');
});

t.test('a type annotation between the name and its value: TypeScript, Python', async (t) => {
  t.equal(run(`const apiKey: string = "${value}";`), `const apiKey: string = "${REDACTED}";`);
  t.equal(run(`    api_key: str = "${value}"`), `    api_key: str = "${REDACTED}"`);
  t.equal(run(`token: Option<String> = Some("${value}")`), `token: Option<String> = Some("${value}")`, 'a call is code');
  t.equal(run(`secret: str | None = '${value}'`), `secret: str | None = '${REDACTED}'`);
  for (const text of ['apiKey: string = process.env.API_KEY;', 'password: str = Field(...)', 'if (token: string == other)', 'token: string;']) t.equal(run(text), text, text);
  t.equal(run(`let apiKey: Map<string, number> = "${value}";`), `let apiKey: Map<string, number> = "${REDACTED}";`, 'a generic with a space');
  t.equal(run(`secret: List[str] = '${value}'`), `secret: List[str] = '${REDACTED}'`, "Python's generic");
});

t.test('aligned columns: up to 32 blanks around the operator (terraform fmt, gofmt)', async (t) => {
  t.equal(run(`  master_password     = "${value}"`), `  master_password     = "${REDACTED}"`);
  t.equal(run(`\tPassword:       "${value}",`), `\tPassword:       "${REDACTED}",`);
  t.equal(run(`DB_PASSWORD${' '.repeat(32)}=${' '.repeat(32)}${value}`), `DB_PASSWORD${' '.repeat(32)}=${' '.repeat(32)}${REDACTED}`);
  const far = `password${' '.repeat(33)}= "${value}"`;
  t.equal(run(far), far, 'past 32 blanks, no assignment');
});

t.test('a label or a variable subscript is not a name given a value', async (t) => {
  for (const text of [`case 'password': message = "${value}"; break;`, `case "token": label = "${value}";`, `row[token] = "${value}"`]) t.equal(run(text), text, text);
});

t.test("a call's quoted sensitive name and quoted value: define(), a default, a setter", async (t) => {
  t.equal(run(`define( 'DB_PASSWORD', '${value}' );`), `define( 'DB_PASSWORD', '${REDACTED}' );`);
  t.equal(run(`define('AUTH_KEY',         '${value}#!k');`), `define('AUTH_KEY',         '${REDACTED}');`, "wp-config.php's aligned values");
  t.equal(run(`DEFINE("API_TOKEN", "${value}\\"x");`), `DEFINE("API_TOKEN", "${REDACTED}");`, 'an escaped quote inside');
  t.equal(run(`SECRET_KEY = os.environ.get('SECRET_KEY', '${value}')`), `SECRET_KEY = os.environ.get('SECRET_KEY', '${REDACTED}')`);
  t.equal(run(`os.getenv("DB_PASSWORD", "${value}")`), `os.getenv("DB_PASSWORD", "${REDACTED}")`);
  t.equal(run(`'password' => env('DB_PASSWORD', '${value}'),`), `'password' => env('DB_PASSWORD', '${REDACTED}'),`);
  t.equal(run(`props.setProperty("password", "${value}");`), `props.setProperty("password", "${REDACTED}");`);
  t.equal(run(`client.DefaultRequestHeaders.Add("X-Api-Key", "${value}");`), `client.DefaultRequestHeaders.Add("X-Api-Key", "${REDACTED}");`);
});

t.test('a call that gives no secret stays', async (t) => {
  for (const text of [
    `define('DB_HOST', '${value}');`,
    "define('DB_PASSWORD', getenv('DB_PASSWORD'));",
    "os.getenv('DB_PASSWORD', '')",
    "define('AUTH_KEY', 'short');",
    `define(DB_PASSWORD, '${value}');`,
    `['password', '${value}']`,
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test("a name/value pair's value: Kubernetes' env, the same in JSON", async (t) => {
  t.equal(run(`env:\n  - name: DB_PASSWORD\n    value: ${value}\n`), `env:\n  - name: DB_PASSWORD\n    value: ${REDACTED}\n`);
  t.equal(run(`- name: API_TOKEN\n  value: "${value}"`), `- name: API_TOKEN\n  value: "${REDACTED}"`);
  t.equal(run(`{"name":"DB_PASSWORD","value":"${value}"}`), `{"name":"DB_PASSWORD","value":"${REDACTED}"}`);
  t.equal(run(`[{"name": "apiKey", "value": "${value}"}]`), `[{"name": "apiKey", "value": "${REDACTED}"}]`);
  t.equal(run(`<add key="ApiKey" value="${value}" />`), `<add key="ApiKey" value="${REDACTED}" />`, ".NET's appSettings");
  t.equal(run(`<property name="password" value="${value}"/>`), `<property name="password" value="${REDACTED}"/>`, "Spring's properties");
  for (const text of [
    '<input name="password" value="" />',
    `<add key="Theme" value="${value}" />`,
    '- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef: {name: db, key: password}',
    `- name: DB_HOST\n  value: ${value}`,
    `token\nvalue: ${value}`,
    `{"label": "password", "value": "${value}"}`,
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test("an XML element's content under a sensitive name (Maven's settings.xml, .NET, Android)", async (t) => {
  t.equal(run(`<password>${value}</password>`), `<password>${REDACTED}</password>`);
  t.equal(run(`<server>\n  <id>nexus</id>\n  <password>${value}</password>\n</server>`), `<server>\n  <id>nexus</id>\n  <password>${REDACTED}</password>\n</server>`);
  t.equal(run(`<apiKey>${value}</apiKey><user>bob</user>`), `<apiKey>${REDACTED}</apiKey><user>bob</user>`);
  for (const text of [
    '<password>${MAVEN_PASSWORD}</password>',
    '<password></password>',
    `</password>${value}`,
    'const tokens: Promise<Token> = load();',
    'function read(): Promise<ApiKey>{ return fetch(url); }',
    '<Password>Enter your password</Password>',
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test('a default after || or ??, quoted and random-looking', async (t) => {
  t.equal(run(`const apiKey = process.env.API_KEY || "${value}";`), `const apiKey = process.env.API_KEY || "${REDACTED}";`);
  t.equal(run(`const token = options.token ?? '${value}';`), `const token = options.token ?? '${REDACTED}';`);
  for (const text of [
    "apiKey: options.apiKey || 'not-needed',",
    "const token = process.env.TOKEN ?? 'anonymous-user';",
    'const password = input.password || fallbackPassword;',
    `if (token || isAdmin) run("${value}");`,
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test("SQL's quoted PASSWORD after a blank (PostgreSQL's CREATE ROLE, ALTER USER)", async (t) => {
  t.equal(run(`CREATE ROLE app WITH LOGIN PASSWORD '${value}';`), `CREATE ROLE app WITH LOGIN PASSWORD '${REDACTED}';`);
  t.equal(run(`alter user app password '${value}'`), `alter user app password '${REDACTED}'`);
  for (const text of ["ALTER ROLE app PASSWORD NULL;", "CREATE ROLE app PASSWORD 'md5'", `the token '${value}' is not read`]) {
    t.equal(run(text), text, text);
  }
});

t.test('a secret told in prose: a sensitive name, `is`, and a random-looking value', async (t) => {
  t.equal(run(`The database password is ${value}.`), `The database password is ${REDACTED}.`);
  t.equal(run(`I found it: the API_TOKEN is \`${value}\` in .env`), `I found it: the API_TOKEN is \`${REDACTED}\` in .env`);
  for (const text of [
    'the token is invalid',
    'The password is stored in the keychain.',
    'the secret is process.env.SECRET',
    'the password is `${DB_PASSWORD}`',
    `this is ${value}`,
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test('a sentence glued to code or JSON without a blank: the word ends where its clause does', async (t) => {
  // the word up to a blank is no value here (too long, or holding code): its first closing punctuation that no word
  // character follows ends it
  const json = `{"c":"${'x'.repeat(300)}","n":12}`;
  t.equal(run(`The database password is ${value}.,${json}`), `The database password is ${REDACTED}.,${json}`);
  t.equal(run(`The database password is ${value}.,function(a,b){return a.map(c=>c*b)}`), `The database password is ${REDACTED}.,function(a,b){return a.map(c=>c*b)}`);
  // a password with punctuation in it still goes whole when the whole word is one
  t.equal(run('the password is Tr0ub4dor!#3x.'), `the password is ${REDACTED}.`);
  const prose = `the token is expired.,${json}`;
  t.equal(run(prose), prose);
});

t.test('prose after `is` in quotes that span words is no secret', async (t) => {
  const text = 'but the token is `highWathe. now so a `Map<string, Run>` build';
  t.equal(run(text), text);
});

t.test('a word told in prose goes whole, up to a blank, but not one around a code span', async (t) => {
  t.equal(run('the password is Tr0ub4dor&3x.'), `the password is ${REDACTED}.`);
  t.equal(run('(the token is Xk29fjQpz8wLm3Qa)'), `(the token is ${REDACTED})`);
  const text = 'The password is rea`highWaterMark` be cache';
  t.equal(run(text), text);
});

/** The characters the rule slices out of `text` (names and values it judges), per character of it. */
const slicedPerCharacter = (text: string): number =>
  weighCalls(String.prototype, 'slice', (part) => (part as string).length, () => ASSIGNMENT_RULE.apply(text)) / text.length;

t.test('long runs of names and of values are judged in linear work', async (t) => {
  // every start after a `-` was a name to judge to the run's end, and every name in a value run judged the rest
  // of it: `a-` × 5,000 then `tokenx=1` took 7 s at 20 KB, `token=https://` × 1,800 3 s at 25 KB
  for (const text of ['a-'.repeat(5000) + 'tokenx=1', 'token=https://'.repeat(700), 'password=http://x/'.repeat(550)]) {
    const perCharacter = slicedPerCharacter(text);
    t.ok(perCharacter < 10, `${text.slice(0, 14)}…: ${perCharacter.toFixed(1)} characters judged per character`);
  }
  const long = `token=${'Zq8nR2vT6yU1iO5p'.repeat(300)}`;
  t.equal(run(`${long} tail`), `token=${REDACTED} tail`, 'a value past 4 KiB goes whole, unread');
  t.equal(run(`x-a-b-api_key=${'Zq8nR2vT6yU1iO5p'}`), `x-a-b-api_key=${REDACTED}`, 'a name after dashes still found');
});
