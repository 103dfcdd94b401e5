import { Anchor, Container, Loader, Text } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";

type SwaggerUi = (options: { url: string; domNode: HTMLElement; deepLinking?: boolean }) => unknown;
declare global {
  interface Window {
    SwaggerUIBundle?: SwaggerUi;
  }
}

/** Loads one of the renderer's files once; resolves when it has loaded. */
function load(tag: "script" | "link", url: string): Promise<void> {
  const existing = document.querySelector(`[data-api-docs="${url}"]`);
  if (existing) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const element = tag === "script" ? Object.assign(document.createElement("script"), { src: url }) : Object.assign(document.createElement("link"), { rel: "stylesheet", href: url });
    element.dataset.apiDocs = url;
    element.addEventListener("load", () => resolve());
    element.addEventListener("error", () => reject(new Error(url)));
    document.head.append(element);
  });
}

/**
 * The API reference (docs/api.md): /api/openapi.json as Swagger UI renders it. The renderer
 * is a kept package (swagger-ui-dist), served by the API and loaded only when this page opens.
 */
export default function ApiDocsPage() {
  const t = useT();
  usePageTitle(t("apiDocs.title"));
  const target = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  useEffect(() => {
    let live = true;
    Promise.all([load("link", "/api/docs/assets/swagger-ui.css"), load("script", "/api/docs/assets/swagger-ui-bundle.js")])
      .then(() => {
        if (!live || !target.current || !window.SwaggerUIBundle) return;
        window.SwaggerUIBundle({ url: "/api/openapi.json", domNode: target.current, deepLinking: true });
        setState("ready");
      })
      .catch(() => live && setState("failed"));
    return () => {
      live = false;
    };
  }, []);
  return (
    <Container size="lg" py="md">
      {state === "loading" && <Loader size="sm" aria-label={t("common.loading")} />}
      {state === "failed" && (
        <Text>
          {t("apiDocs.failed")} <Anchor href="/api/openapi.json">/api/openapi.json</Anchor>
        </Text>
      )}
      <div ref={target} data-testid="api-docs" />
    </Container>
  );
}
