/**
 * Text from the network made fit for a one-line message: no credentials, no markup, no line
 * breaks, bounded length. Every error message of core passes through here.
 */

/** `scheme://user:secret@` → `scheme://` in any text (messages, server words, causes). */
export function stripUserinfo(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, '$1');
}

/** An HTML document (a gateway's or a login page) rather than data. */
export function looksLikeHtml(text: string, contentType?: string | null): boolean {
  if (contentType && /\bhtml\b/i.test(contentType)) return true;
  return /^\s*(<!doctype\s+html|<html|<head|<body|<\?xml|<title)/i.test(text);
}

/** One line of plain text: tags dropped, entities and whitespace collapsed, at most `max` characters. */
export function oneLine(text: string, max = 300): string {
  const plain = text
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}
