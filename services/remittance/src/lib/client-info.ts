/** The caller's address and user agent, as sessions and data-rights requests record them. */
export function clientInfo(req: { ip: string; headers: Record<string, string | string[] | undefined> }) {
  const ua = req.headers['user-agent'];
  return { ip: req.ip ?? null, userAgent: typeof ua === 'string' ? ua : null };
}
