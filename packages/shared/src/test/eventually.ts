/**
 * Polls `check` every 10 ms until it holds or `ms` have passed; the last check's answer. For what
 * another connection or instance delivers asynchronously (a PostgreSQL notification).
 */
export async function eventually(check: () => Promise<boolean>, ms = 2_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return check();
}
