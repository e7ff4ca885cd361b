// A browser for our HTML pages (the board app's install flow), as far as they need one: it
// keeps the cookies they set (dropping the ones they expire) and sends them back, and it does
// not follow redirects, so a test sees each 302 and where it points.

export class Browser {
  private readonly jar = new Map<string, string>();

  /** The Cookie header it sends ('' when it holds none). */
  get cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async go(url: string, init: RequestInit = {}) {
    const cookie = this.cookie;
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, pair.slice(at + 1));
    }
    return {
      status: response.status,
      location: response.headers.get('location'),
      headers: response.headers,
      text: await response.text(),
    };
  }
}
