import t from 'tap';
import {
  QUERY_PARAM_KEYWORDS, SENSITIVE_ENV_SUFFIXES, SENSITIVE_KEY_KEYWORDS, SENSITIVE_QUERY_PARAMS, SENSITIVE_SUFFIXES, isSensitiveKey,
  isSensitiveQueryParam, normaliseKey,
} from '../../../lib/redaction/keys.js';

t.test('normaliseKey folds camelCase, acronyms and separators', async (t) => {
  for (const key of ['apiKey', 'api-key', 'API_KEY', 'APIKey', 'api.key', ' api  key ', 'Api_Key']) {
    t.equal(normaliseKey(key), 'api_key', key);
  }
  t.equal(normaliseKey('OPENAI_API_KEY'), 'openai_api_key');
  t.equal(normaliseKey('x-amz-Security-Token'), 'x_amz_security_token');
  t.equal(normaliseKey('promptTokens'), 'prompt_tokens');
});

t.test('sensitive keys', async (t) => {
  const sensitive = [
    'password', 'Password', 'DB_PASSWORD', 'passwd', 'secret', 'clientSecret', 'client_secret', 'token',
    'accessToken', 'refresh_token', 'GITHUB_TOKEN', 'apiKey', 'api-key', 'API_KEY', 'x-api-key', 'apikey',
    'OPENAI_APIKEY', 'access_key', 'aws_secret_access_key', 'privateKey', 'private_key', 'credential',
    'credentials', 'Authorization', 'Proxy-Authorization', 'cookie', 'Set-Cookie', 'session_token',
    'sessionToken', 'spring.datasource.password',
    // keys named for what they unlock
    'AccountKey', 'AZURE_STORAGE_KEY', 'NEW_RELIC_LICENSE_KEY', 'HMAC_KEY', 'APP_KEY', 'DD_APP_KEY', 'AUTH_KEY',
    'TS_AUTHKEY', 'ALGOLIA_ADMIN_KEY', 'Ocp-Apim-Subscription-Key', 'PresharedKey', 'SECRET_KEY_BASE', 'API_KEYS',
    'SECRETKEY', 'PRIVATEKEY', 'MASTERKEY', 'ACCESSKEY',
  ];
  for (const key of sensitive) t.ok(isSensitiveKey(key), key);
});

t.test('ordinary keys', async (t) => {
  const ordinary = [
    'promptTokens', 'completionTokens', 'totalTokens', 'tokenizer', 'max_tokens', 'maxTokens',
    'token_count', 'tokens', 'sessionId', 'runId', 'id', 'type', 'key', 'name', 'cwd', 'model',
    'passwordHint', 'keyboard', '', 'primary_key', 'foreign_key', 'cacheKey', 'sortKey', 'publicKey', 'keyId',
  ];
  for (const key of ordinary) t.notOk(isSensitiveKey(key), key);
});

t.test('sensitive query parameters', async (t) => {
  for (const name of ['token', 'access_token', 'api_key', 'key', 'secret', 'password', 'signature', 'sig', 'X-Amz-Signature']) {
    t.ok(isSensitiveQueryParam(name), name);
  }
  for (const name of ['q', 'page', 'sort', 'id', 'max_tokens']) t.notOk(isSensitiveQueryParam(name), name);
});

t.test('answers are cached, and stay right', async (t) => {
  for (let round = 0; round < 2; round++) {
    t.ok(isSensitiveKey('githubToken'));
    t.notOk(isSensitiveKey('promptTokens'));
  }
  for (let n = 0; n < 5000; n++) isSensitiveKey(`field${n}`);
  t.ok(isSensitiveKey('DB_PASSWORD'), 'still right after the cache is cleared');
});

t.test('every sensitive name contains a prefilter keyword', async (t) => {
  for (const suffix of SENSITIVE_SUFFIXES) t.ok(SENSITIVE_KEY_KEYWORDS.some((k) => suffix.includes(k)), suffix);
  for (const name of SENSITIVE_QUERY_PARAMS) t.ok(QUERY_PARAM_KEYWORDS.some((k) => name.includes(k)), name);
});

t.test('environment-style names: *_PASS, *_PWD, *_AUTH and *_…_KEY of signing, encryption, master, ssh and session keys', async (t) => {
  for (const key of ['DB_PASS', 'MYSQL_PWD', 'REGISTRY_AUTH', 'basicAuth', 'JWT_SIGNING_KEY', 'DATA_ENCRYPTION_KEY', 'VAULT_MASTER_KEY', 'DEPLOY_SSH_KEY', 'FLASK_SESSION_KEY', 'sshKey']) {
    t.ok(isSensitiveKey(key), key);
  }
  // the same words without a separator, or alone, are ordinary
  for (const key of ['bypass', 'compass', 'pass', 'pwd', 'auth', 'oauth', 'githubOauth', 'author']) t.notOk(isSensitiveKey(key), key);
  for (const suffix of SENSITIVE_ENV_SUFFIXES) t.ok(SENSITIVE_KEY_KEYWORDS.some((k) => suffix.includes(k)), suffix);
});

t.test('a sensitive name with a qualifier after it is still one: a number, a version, an environment', async (t) => {
  for (const name of ['DB_PASSWORD_PROD', 'API_KEY_V2', 'ADMIN_PASSWORD_1', 'apiKeyStaging', 'API_KEY_PROD_2', 'SECRET_OLD']) t.ok(isSensitiveKey(name), name);
  for (const name of ['token_count', 'password_hint', 'tokens_1', 'secret_v2_v3_v4', 'testing', 'max_tokens_prod']) t.notOk(isSensitiveKey(name), name);
});
