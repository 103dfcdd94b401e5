/** An HTTP answer as tests read it: status, headers, the body's text and, when it is JSON, its value. */
export async function answerOf(res: Response) {
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}
