/*
 * Mantine styles for the components the first screen needs, one file each and inside the
 * `mantine` cascade layer, so our own CSS wins regardless of load order. Components used
 * only by a lazy page import their CSS there, which keeps the initial CSS small.
 * MantineProvider injects at run time only the variables our theme changes; the defaults
 * come from default-css-variables.
 */
import "@mantine/core/styles/baseline.layer.css";
import "@mantine/core/styles/default-css-variables.layer.css";
import "@mantine/core/styles/global.layer.css";
import "@mantine/core/styles/UnstyledButton.layer.css";
import "@mantine/core/styles/Button.layer.css";
import "@mantine/core/styles/CloseButton.layer.css";
import "@mantine/core/styles/ActionIcon.layer.css";
import "@mantine/core/styles/Loader.layer.css";
import "@mantine/core/styles/Center.layer.css";
import "@mantine/core/styles/Group.layer.css";
import "@mantine/core/styles/Stack.layer.css";
import "@mantine/core/styles/Text.layer.css";
import "@mantine/core/styles/Title.layer.css";
import "@mantine/core/styles/Anchor.layer.css";
import "@mantine/core/styles/Paper.layer.css";
import "@mantine/core/styles/Input.layer.css";
