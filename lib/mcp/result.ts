import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';

/** The size of base64 data in words: "1.5 KB". */
function sizeOf(base64: string): string {
  const bytes = Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** One content block as text: text as it is; what a model reading text cannot see (images, audio, blobs), said in words. */
function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${sizeOf(block.data)}, not shown]`;
    case 'resource_link':
      return `[resource link: ${block.name} ${block.uri}${block.mimeType ? ` (${block.mimeType})` : ''}${block.description ? ` — ${block.description}` : ''}]`;
    case 'resource': {
      const { resource } = block;
      if ('text' in resource && typeof resource.text === 'string') return `[resource ${resource.uri}]\n${resource.text}`;
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? `, ${sizeOf(resource.blob)}` : '';
      return `[resource ${resource.uri}${resource.mimeType ? `: ${resource.mimeType}` : ''}${blob}, not shown]`;
    }
    default:
      return `[${(block as { type: string }).type} content, not shown]`;
  }
}

/** A tool's result as the one text a tool_result holds: its blocks joined, or its structured content when it has no blocks. */
export function resultText(result: CallToolResult): string {
  const blocks = result.content ?? [];
  if (blocks.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return blocks.map(blockText).join('\n');
}
