import { Input } from "@mantine/core";
import { lazy, Suspense, useId } from "react";
import { LengthCounter } from "./LengthCounter.tsx";
import type { PostEditorProps } from "./PostEditor.tsx";
import classes from "./PostEditor.module.css";

// TipTap and ProseMirror are a chunk of their own, fetched when an editor first shows, so
// the app's first load stays within its budget (scripts/web_budget.ts).
const PostEditor = lazy(() => import("./PostEditor.tsx"));

/** The post editor, loaded on first use; until then its text shows read-only in the same box. */
export function LazyPostEditor(props: PostEditorProps) {
  return (
    <Suspense fallback={<LoadingPostEditor {...props} />}>
      <PostEditor {...props} />
    </Suspense>
  );
}

function LoadingPostEditor({ value, limit, label, placeholder }: PostEditorProps) {
  const labelId = useId();
  return (
    <div className={classes.root} aria-busy="true">
      <Input.Label id={labelId} labelElement="div">
        {label}
      </Input.Label>
      <div className={classes.frame}>
        <div className={classes.toolbarSpace} />
        <textarea
          className={classes.fallbackText}
          aria-labelledby={labelId}
          value={value.text}
          placeholder={placeholder}
          readOnly
        />
      </div>
      <div className={classes.footer}>
        <LengthCounter length={value.text.length} limit={limit} />
      </div>
    </div>
  );
}

export default LazyPostEditor;
