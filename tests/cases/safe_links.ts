/*
 * Links a hostile account would try in a post, and the harmless ones that must keep
 * working (docs/trust-model.md): shared by the contract's tests and the API's.
 */

/** Dangerous Telegram actions as an attacker would try to slip them in. */
export const UNSAFE_LINKS = [
  "tg://login?token=AAAA",
  "TG://LOGIN?token=AAAA",
  "Tg://Login?token=AAAA",
  "tg:login?token=AAAA",
  "tg:/login?token=AAAA",
  "tg:///login?token=AAAA",
  "tg://login/?token=AAAA",
  "tg://resolve@login?token=AAAA",
  "tg://%6Cogin?token=AAAA",
  "tg://login%3Ftoken=AAAA",
  " tg://login?token=AAAA",
  "tg://resolve\n?domain=x",
  "tg://proxy?server=evil.example&port=443&secret=ee",
  "tg://socks?server=evil.example&port=1080",
  "tg://passport?bot_id=1&scope=x&public_key=y",
  "tg://confirmphone?phone=1&hash=x",
  "tg://invoice?slug=x",
  "tg://setlanguage?lang=x",
  "tg://settings",
  "tg:resolve?domain=pressa",
  "https://t.me/proxy?server=evil.example&port=443&secret=ee",
  "https://T.ME/Socks?server=evil.example&port=1080",
  "https://telegram.me/login/12345",
  "https://www.telegram.dog/proxy?server=evil.example",
  // spelled so that a check of the raw path or host misses them; Telegram's apps still open the action
  "https://t.me/%70roxy?server=evil.example&port=443&secret=ee",
  "https://t.me./proxy?server=evil.example&port=443&secret=ee",
  "https://t.me//proxy?server=evil.example&port=443&secret=ee",
  "https://t.me/%6Cogin/12345",
  "https://t.me/%2570roxy?server=evil.example",
  "https://t.me/%2Fproxy?server=evil.example",
  "https://t.me/\\proxy?server=evil.example",
  "https://T.ME../%50ROXY?server=evil.example",
  "https://telegram.me///Socks;x?server=evil.example",
];
export const SAFE_LINKS = [
  "tg://resolve?domain=pressa",
  "TG://RESOLVE?domain=pressa",
  "tg://resolve/?domain=pressa&start=hello",
  "tg://join?invite=AbCdEf",
  "tg://addlist?slug=news",
  "tg://privatepost?channel=123&post=45",
  "tg://boost?domain=pressa",
  "tg://msg_url?url=https%3A%2F%2Fpressa.app&text=hi",
  "https://t.me/pressa",
  "https://t.me/share/url?url=https%3A%2F%2Fpressa.app",
  "https://login.example.com/proxy",
  "https://t.me/proxybot",
  "https://t.me/pressa/%70roxy",
];
