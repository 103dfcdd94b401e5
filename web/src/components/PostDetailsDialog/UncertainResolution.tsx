import { Button, Group, Text } from "@mantine/core";
import { useState } from "react";
import { resolveUncertainPost } from "../../api/posts.ts";
import { useT } from "../../i18n/i18n.tsx";
import { serverMessage } from "../../lib/messages.ts";
import { UNCERTAIN_ANSWERS, type UncertainAnswer, uncertainOutcome } from "../../lib/postDetails.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";

type UncertainResolutionProps = {
  projectId: number;
  postId: number;
  /** The question is answered: the dialog closes, whatever the answer turned out to be. */
  onAnswered: () => void;
};

/**
 * The question an uncertain post's admin got in Telegram, asked here too: is the post in the
 * channel, or should it go again? Whoever answers first decides; a late answer is told so.
 */
export function UncertainResolution({ projectId, postId, onAnswered }: UncertainResolutionProps) {
  const t = useT();
  const [answering, setAnswering] = useState<UncertainAnswer | null>(null);

  const handleAnswer = async (answer: UncertainAnswer, inChannel: boolean) => {
    setAnswering(answer);
    try {
      const answered = await resolveUncertainPost(projectId, postId, inChannel);
      toastSuccess(t(uncertainOutcome(inChannel, answered)));
      onAnswered();
    } catch (error) {
      toastError(t("schedule.uncertain.answerFailed"), serverMessage(t, error));
    } finally {
      setAnswering(null);
    }
  };

  return (
    <>
      <Text size="sm" fw={500} mt="sm">
        {t("schedule.uncertain.question")}
      </Text>
      <Group gap="xs" mt={8}>
        {UNCERTAIN_ANSWERS.map(({ answer, inChannel, label, testId }) => (
          <Button
            key={answer}
            size="xs"
            variant="default"
            onClick={() => void handleAnswer(answer, inChannel)}
            loading={answering === answer}
            disabled={answering !== null}
            data-testid={testId}
          >
            {t(label)}
          </Button>
        ))}
      </Group>
    </>
  );
}
