/**
 * The provider presets a profile names with `catalogID`, as Zero's own catalog
 * (internal/providercatalog) lists them, plus vLLM and llama.cpp. A preset gives
 * a profile its kind, its base URL, its model and the variable its key is read
 * from, wherever the profile does not say.
 */

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** How a preset's server is spoken to: the profile kinds, and Zero's transports zero-stream has no client for. */
export type Transport = 'openai' | 'anthropic' | 'openai-compatible' | 'anthropic-compatible' | 'google' | 'bedrock' | 'vertex';

export type CatalogEntry = {
  id: string;
  name: string;
  transport: Transport;
  baseURL: string;
  /** Absent for a local server that serves whatever model it was started with. */
  model?: string;
  /** The variables the key is read from; the first is what a profile without apiKeyEnv uses. None for a local server. */
  keyVariables: string[];
  aliases?: string[];
  local?: true;
  /** Why zero-stream cannot run this preset, though Zero can. */
  unsupported?: string;
};

type Row = [id: string, name: string, transport: Transport, baseURL: string, model: string | undefined, keyVariables: string[], aliases?: string[]];

const NATIVE = 'Zero runs it with a native client zero-stream does not have';

const ROWS: Row[] = [
  ['gitlawb-opengateway', 'GitLawb OpenGateway', 'openai-compatible', 'https://opengateway.gitlawb.com/v1', 'mimo-v2.5-pro', ['GITLAWB_OPENGATEWAY_API_KEY'], ['gitlawb opengateway', 'opengateway']],
  ['openai', 'OpenAI', 'openai', OPENAI_BASE_URL, 'gpt-4.1', ['OPENAI_API_KEY']],
  ['anthropic', 'Anthropic', 'anthropic', ANTHROPIC_BASE_URL, 'claude-sonnet-4.5', ['ANTHROPIC_API_KEY']],
  ['google', 'Google', 'google', 'https://generativelanguage.googleapis.com', 'gemini-2.5-pro', ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], ['gemini']],
  ['ollama-cloud', 'Ollama Cloud', 'openai-compatible', 'https://ollama.com/v1', 'qwen3-coder:480b', ['OLLAMA_API_KEY'], ['ollama.com', 'ollama cloud']],
  ['ollama', 'Ollama Local', 'openai-compatible', 'http://localhost:11434/v1', 'llama3.1', [], ['ollama local']],
  ['lmstudio', 'LM Studio', 'openai-compatible', 'http://localhost:1234/v1', 'local-model', [], ['lm-studio', 'lm studio']],
  ['vllm', 'vLLM', 'openai-compatible', 'http://localhost:8000/v1', undefined, []],
  ['llama-cpp', 'llama.cpp', 'openai-compatible', 'http://localhost:8080/v1', undefined, [], ['llamacpp', 'llama-server']],
  ['openrouter', 'OpenRouter', 'openai-compatible', 'https://openrouter.ai/api/v1', 'openai/gpt-4.1', ['OPENROUTER_API_KEY']],
  ['huggingface', 'Hugging Face', 'openai-compatible', 'https://router.huggingface.co/v1', 'meta-llama/Llama-3.3-70B-Instruct', ['HUGGINGFACE_API_KEY']],
  ['chatgpt', 'ChatGPT', 'openai-compatible', 'https://chatgpt.com/backend-api/codex', 'gpt-5.5', []],
  ['groq', 'Groq', 'openai-compatible', 'https://api.groq.com/openai/v1', 'llama-3.3-70b-versatile', ['GROQ_API_KEY']],
  ['deepseek', 'DeepSeek', 'openai-compatible', 'https://api.deepseek.com/v1', 'deepseek-chat', ['DEEPSEEK_API_KEY']],
  ['together', 'Together AI', 'openai-compatible', 'https://api.together.xyz/v1', 'meta-llama/Llama-3.3-70B-Instruct-Turbo', ['TOGETHER_API_KEY']],
  ['dashscope', 'DashScope', 'openai-compatible', 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1', 'qwen-plus', ['DASHSCOPE_API_KEY', 'QWEN_API_KEY'], ['qwen']],
  ['moonshot', 'Moonshot AI', 'openai-compatible', 'https://api.moonshot.ai/v1', 'kimi-k2-0905-preview', ['MOONSHOT_API_KEY'], ['kimi']],
  ['longcat', 'LongCat', 'openai-compatible', 'https://api.longcat.chat/openai', 'LongCat-2.0', ['LONGCAT_API_KEY'], ['meituan longcat', 'meituan', 'longcat-2.0']],
  ['nvidia-nim', 'NVIDIA NIM', 'openai-compatible', 'https://integrate.api.nvidia.com/v1', 'nvidia/llama-3.1-nemotron-70b-instruct', ['NVIDIA_API_KEY'], ['nvidia nim']],
  ['minimax', 'MiniMax', 'anthropic-compatible', 'https://api.minimax.io/anthropic', 'MiniMax-M3', ['MINIMAX_API_KEY'], ['mini-max', 'mini_max']],
  ['minimaxi-cn', 'MiniMax CN', 'anthropic-compatible', 'https://api.minimaxi.com/anthropic', 'MiniMax-M3', ['MINIMAXI_API_KEY'], ['minimax cn', 'minimax-cn']],
  ['mistral', 'Mistral', 'openai-compatible', 'https://api.mistral.ai/v1', 'mistral-large-latest', ['MISTRAL_API_KEY']],
  ['github', 'GitHub Models', 'openai-compatible', 'https://models.inference.ai.azure.com', 'openai/gpt-4.1', ['GITHUB_TOKEN'], ['github-models']],
  ['bedrock', 'Amazon Bedrock', 'bedrock', 'https://bedrock-runtime.${AWS_REGION}.amazonaws.com', 'anthropic.claude-3-5-sonnet-20241022-v2:0', ['AWS_ACCESS_KEY_ID', 'AWS_PROFILE']],
  ['vertex', 'Vertex AI', 'vertex', 'https://aiplatform.googleapis.com', 'gemini-2.5-pro', ['GOOGLE_APPLICATION_CREDENTIALS']],
  ['xai', 'xAI', 'openai-compatible', 'https://api.x.ai/v1', 'grok-4', ['XAI_API_KEY']],
  ['venice', 'Venice AI', 'openai-compatible', 'https://api.venice.ai/api/v1', 'qwen-2.5-qwq-32b', ['VENICE_API_KEY']],
  ['xiaomi-mimo', 'Xiaomi MiMo', 'openai-compatible', 'https://api.mimo.xiaomi.com/openai/v1', 'mimo-vl', ['MIMO_API_KEY', 'XIAOMI_API_KEY'], ['xiaomi mimo']],
  ['bankr', 'Bankr', 'openai-compatible', 'https://api.bankr.bot/v1', 'bankr-large', ['BANKR_API_KEY']],
  ['zai', 'Z.ai', 'openai-compatible', 'https://api.z.ai/api/paas/v4', 'glm-4.5', ['ZAI_API_KEY'], ['z.ai']],
  ['zai-cn', 'Z.ai CN', 'openai-compatible', 'https://open.bigmodel.cn/api/paas/v4', 'glm-4.5', ['ZHIPU_API_KEY'], ['z.ai cn']],
  ['kilocode', 'KiloCode', 'openai-compatible', 'https://api.kilo.ai/api/gateway', 'anthropic/claude-sonnet-4.6', ['KILO_API_KEY'], ['kilo', 'kilo gateway']],
  ['opencode', 'OpenCode Zen', 'openai-compatible', 'https://opencode.ai/zen/v1', 'deepseek-v4-flash', ['OPENCODE_API_KEY'], ['opencode zen']],
  ['opencode-go', 'OpenCode Go', 'openai-compatible', 'https://opencode.ai/zen/go/v1', 'deepseek-v4-pro', ['OPENCODE_API_KEY'], ['opencode go']],
  ['opencode-go-anthropic-compatible', 'OpenCode Go Anthropic-compatible', 'anthropic-compatible', 'https://opencode.ai/zen/go', 'minimax-m3', ['OPENCODE_API_KEY']],
  ['atomic-chat', 'Atomic Chat', 'openai-compatible', 'https://api.atomic.chat/v1', 'gpt-4.1', ['ATOMIC_CHAT_API_KEY']],
  ['chatgpt-proxy', 'ChatGPT (local OAuth proxy)', 'openai-compatible', 'http://localhost:10531/v1', 'gpt-5', [], ['chatgpt']],
  ['custom-openai-compatible', 'Custom OpenAI-compatible', 'openai-compatible', 'https://example.invalid/v1', 'custom-model', ['OPENAI_API_KEY'], ['custom openai compatible']],
  ['custom-anthropic-compatible', 'Custom Anthropic-compatible', 'anthropic-compatible', 'https://example.invalid/anthropic', 'custom-model', ['ANTHROPIC_API_KEY'], ['custom anthropic compatible']],
];

const UNSUPPORTED: Record<string, string> = {
  chatgpt: "it needs Zero's ChatGPT sign-in (OAuth) and the Codex Responses API, which zero-stream has neither of: use chatgpt-proxy, a local proxy that holds the sign-in",
  bedrock: NATIVE,
  vertex: NATIVE,
};

const LOCAL = new Set(['ollama', 'lmstudio', 'vllm', 'llama-cpp', 'chatgpt-proxy']);

export const CATALOG: readonly CatalogEntry[] = ROWS.map(([id, name, transport, baseURL, model, keyVariables, aliases]) => ({
  id,
  name,
  transport,
  baseURL,
  ...(model ? { model } : {}),
  keyVariables,
  ...(aliases ? { aliases } : {}),
  ...(LOCAL.has(id) ? { local: true as const } : {}),
  ...(UNSUPPORTED[id] ? { unsupported: UNSUPPORTED[id] } : {}),
}));

/** An id as Zero compares them: lower case, every run of other characters one `-`, none at the ends ("LM Studio" is "lm-studio"). */
export function normalizeCatalogID(id: string): string {
  return id
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** The preset of an id or one of its aliases (the first in catalog order wins, as in Zero: `chatgpt` is ChatGPT, not the proxy). */
export function catalogEntry(id: string): CatalogEntry | undefined {
  const wanted = normalizeCatalogID(id);
  if (!wanted) return undefined;
  return CATALOG.find((entry) => entry.id === wanted || entry.aliases?.some((alias) => normalizeCatalogID(alias) === wanted));
}

/** Two base URLs name the same server when they differ only in case and trailing slashes. */
export function sameBaseURL(left: string | undefined, right: string | undefined): boolean {
  const plain = (url: string) => url.trim().replace(/\/+$/, '').toLowerCase();
  return left !== undefined && right !== undefined && plain(left) === plain(right);
}
