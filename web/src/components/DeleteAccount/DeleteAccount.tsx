import { Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import "@mantine/core/styles/Modal.layer.css";
import { type FormEvent, useState } from "react";
import { deleteAccount, useUser } from "../../api/auth.ts";
import { useT } from "../../i18n/i18n.tsx";
import { failureText } from "../../lib/messages.ts";
import { SectionCard } from "../SectionCard/SectionCard.tsx";
import { IconTrash } from "../Icons/Icons.tsx";

/**
 * Deleting one's account (DELETE /api/auth/user, docs/teams.md "Accounts"): the projects only
 * this account is in go with it; shared ones stay with their members. The address must be typed
 * to confirm, because nothing brings the account back. The last owner of a shared project is
 * refused by the server (account.ownsSharedProject, naming the project): the refusal is shown
 * in the dialog, so the owner knows which project to hand over first.
 */
export function DeleteAccount() {
  const t = useT();
  const { user } = useUser();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [deleting, setDeleting] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  if (!user) return null;
  const matches = typed.trim().toLowerCase() === user.email.toLowerCase();

  const close = () => {
    setOpen(false);
    setTyped("");
    setRefusal(null);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!matches) return;
    setDeleting(true);
    try {
      await deleteAccount();
    } catch (failure) {
      setRefusal(failureText(t, failure, "common.tryAgainLater"));
    } finally {
      setDeleting(false);
    }
  };

  return (
    <SectionCard title={t("settings.deleteAccount")} hint={t("settings.deleteAccount.hint")} testId="delete-account">
      <Group>
        <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setOpen(true)}>
          {t("settings.deleteAccount.open")}
        </Button>
      </Group>
      <Modal opened={open} onClose={close} title={t("settings.deleteAccount.confirmTitle")}>
        <form onSubmit={submit}>
          <Stack gap="sm">
            <Text size="sm">{t("settings.deleteAccount.confirmText")}</Text>
            <TextInput
              label={t("settings.deleteAccount.typeEmail", { email: user.email })}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              data-autofocus
              error={refusal}
              data-testid="delete-account-email"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t("common.cancel")}
              </Button>
              <Button type="submit" color="red" disabled={!matches} loading={deleting} data-testid="delete-account-confirm">
                {t("settings.deleteAccount.confirm")}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </SectionCard>
  );
}
