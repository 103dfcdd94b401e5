import type { ReactNode, SVGProps } from "react";

type IconProps = Omit<SVGProps<SVGSVGElement>, "children"> & { size?: number | string };

/** Line icons drawn for Pressa on a 24px grid; they inherit the text colour. */
function createIcon(paths: ReactNode, name: string) {
  function Icon({ size = 20, strokeWidth = 1.8, ...props }: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={strokeWidth}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        {...props}
      >
        {paths}
      </svg>
    );
  }
  Icon.displayName = name;
  return Icon;
}

export const IconHome = createIcon(
  <>
    <path d="M3.5 10.5 12 3.5l8.5 7" />
    <path d="M5.5 9v11h4.5v-6h4v6h4.5V9" />
  </>,
  "IconHome",
);

export const IconFolder = createIcon(
  <path d="M3.5 7A1.5 1.5 0 0 1 5 5.5h4l2 2.5h8A1.5 1.5 0 0 1 20.5 9.5v8.5A1.5 1.5 0 0 1 19 19.5H5A1.5 1.5 0 0 1 3.5 18z" />,
  "IconFolder",
);

export const IconSettings = createIcon(
  <>
    <path d="M4 6.5h9M17 6.5h3M4 12h3M11 12h9M4 17.5h11M19 17.5h1" />
    <circle cx="15" cy="6.5" r="2" />
    <circle cx="9" cy="12" r="2" />
    <circle cx="17" cy="17.5" r="2" />
  </>,
  "IconSettings",
);

export const IconCreditCard = createIcon(
  <>
    <rect x="3" y="5.5" width="18" height="13" rx="2" />
    <path d="M3 10h18M7 14.5h3" />
  </>,
  "IconCreditCard",
);

export const IconLogout = createIcon(
  <>
    <path d="M14 4.5h4a1.5 1.5 0 0 1 1.5 1.5v12a1.5 1.5 0 0 1-1.5 1.5h-4" />
    <path d="M9.5 8 5.5 12l4 4M5.5 12H15" />
  </>,
  "IconLogout",
);

export const IconPlus = createIcon(<path d="M12 5v14M5 12h14" />, "IconPlus");

export const IconPencil = createIcon(
  <>
    <path d="M5 19l1-4.5L15.5 5a2.1 2.1 0 0 1 3 3L9 17.5z" />
    <path d="M13.5 7l3 3" />
  </>,
  "IconPencil",
);

export const IconTrash = createIcon(
  <>
    <path d="M4.5 7h15M10 11v6M14 11v6" />
    <path d="M6.5 7l.8 11.2A2 2 0 0 0 9.3 20h5.4a2 2 0 0 0 2-1.8L17.5 7M9.5 7V4.5h5V7" />
  </>,
  "IconTrash",
);

export const IconSparkles = createIcon(
  <>
    <path d="M11 4l1.6 4.4L17 10l-4.4 1.6L11 16l-1.6-4.4L5 10l4.4-1.6z" />
    <path d="M18 14.5l.7 1.8 1.8.7-1.8.7-.7 1.8-.7-1.8-1.8-.7 1.8-.7z" />
  </>,
  "IconSparkles",
);

export const IconMegaphone = createIcon(
  <>
    <path d="M4 10v4a1 1 0 0 0 1 1h2.5L13 19V5L7.5 9H5a1 1 0 0 0-1 1z" />
    <path d="M16.5 9a4 4 0 0 1 0 6M7.5 15l1 4.5" />
  </>,
  "IconMegaphone",
);

export const IconCalendar = createIcon(
  <>
    <rect x="4" y="5.5" width="16" height="14.5" rx="2" />
    <path d="M4 10h16M8.5 3.5v4M15.5 3.5v4" />
  </>,
  "IconCalendar",
);

export const IconFileText = createIcon(
  <>
    <path d="M7 3.5h7l4.5 4.5v11.5a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1v-15a1 1 0 0 1 1-1z" />
    <path d="M13.5 3.5V8.5h5M9 13h6M9 16.5h4" />
  </>,
  "IconFileText",
);

export const IconSend = createIcon(
  <>
    <path d="M20.5 3.5 10 14" />
    <path d="M20.5 3.5 14 20.5l-4-6.5-6.5-4z" />
  </>,
  "IconSend",
);

export const IconClock = createIcon(
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 7.5V12l3 2" />
  </>,
  "IconClock",
);

export const IconAt = createIcon(
  <>
    <circle cx="12" cy="12" r="3.5" />
    <path d="M15.5 12v1.5a2.5 2.5 0 0 0 5 0V12a8.5 8.5 0 1 0-3.5 6.9" />
  </>,
  "IconAt",
);

export const IconGlobe = createIcon(
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M3.5 12h17M12 3.5c2.3 2.4 3.5 5.2 3.5 8.5s-1.2 6.1-3.5 8.5c-2.3-2.4-3.5-5.2-3.5-8.5S9.7 5.9 12 3.5z" />
  </>,
  "IconGlobe",
);

export const IconMail = createIcon(
  <>
    <rect x="3.5" y="5.5" width="17" height="13" rx="2" />
    <path d="m4 7 8 6 8-6" />
  </>,
  "IconMail",
);

export const IconArrowLeft = createIcon(<path d="M19 12H5M11 6l-6 6 6 6" />, "IconArrowLeft");

export const IconChevronRight = createIcon(<path d="m9.5 6 6 6-6 6" />, "IconChevronRight");

export const IconChevronLeft = createIcon(<path d="m14.5 6-6 6 6 6" />, "IconChevronLeft");

export const IconRepeat = createIcon(
  <>
    <path d="M4.5 11V9.5a3 3 0 0 1 3-3h12M16.5 3.5l3 3-3 3" />
    <path d="M19.5 13v1.5a3 3 0 0 1-3 3h-12M7.5 20.5l-3-3 3-3" />
  </>,
  "IconRepeat",
);

export const IconHourglass = createIcon(
  <path d="M7 3.5h10M7 20.5h10M8 3.5v3a4 4 0 0 0 4 4 4 4 0 0 1 4 4v6M16 3.5v3a4 4 0 0 1-4 4 4 4 0 0 0-4 4v6" />,
  "IconHourglass",
);

export const IconHelpCircle = createIcon(
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M9.6 9.5a2.5 2.5 0 0 1 4.8.9c0 1.7-2.4 2.1-2.4 3.6M12 16.6v.2" />
  </>,
  "IconHelpCircle",
);

export const IconXCircle = createIcon(
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="m9.2 9.2 5.6 5.6M14.8 9.2l-5.6 5.6" />
  </>,
  "IconXCircle",
);

export const IconCheck = createIcon(<path d="m5 12.5 4.5 4.5L19 7.5" />, "IconCheck");

export const IconAlert = createIcon(
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 7.5v5.5M12 16.3v.2" />
  </>,
  "IconAlert",
);

export const IconShield = createIcon(
  <path d="M12 3.5 5 6v5.5c0 4.3 2.9 7.6 7 9 4.1-1.4 7-4.7 7-9V6z" />,
  "IconShield",
);

export const IconBug = createIcon(
  <>
    <rect x="7.5" y="8" width="9" height="12" rx="4.5" />
    <path d="M9.5 8a2.5 2.5 0 0 1 5 0M12 12v8M4 13h3.5M16.5 13H20M5 8.5l2.7 1.8M19 8.5l-2.7 1.8M5 18.5l2.8-1.6M19 18.5l-2.8-1.6" />
  </>,
  "IconBug",
);

export const IconGripVertical = createIcon(
  <>
    <circle cx="9" cy="6" r="1.1" fill="currentColor" stroke="none" />
    <circle cx="15" cy="6" r="1.1" fill="currentColor" stroke="none" />
    <circle cx="9" cy="12" r="1.1" fill="currentColor" stroke="none" />
    <circle cx="15" cy="12" r="1.1" fill="currentColor" stroke="none" />
    <circle cx="9" cy="18" r="1.1" fill="currentColor" stroke="none" />
    <circle cx="15" cy="18" r="1.1" fill="currentColor" stroke="none" />
  </>,
  "IconGripVertical",
);

export const IconPhoto = createIcon(
  <>
    <rect x="3.5" y="4.5" width="17" height="15" rx="2" />
    <circle cx="9" cy="9.5" r="1.6" />
    <path d="m4 17 4.5-4.5 3.5 3.5 2.5-2.5 5.5 5" />
  </>,
  "IconPhoto",
);

export const IconUpload = createIcon(
  <>
    <path d="M12 15.5V4.5M7.5 9 12 4.5 16.5 9" />
    <path d="M4.5 15v3a1.5 1.5 0 0 0 1.5 1.5h12a1.5 1.5 0 0 0 1.5-1.5v-3" />
  </>,
  "IconUpload",
);

export const IconListPlus = createIcon(
  <path d="M4.5 6.5h10M4.5 12h10M4.5 17.5h6M17.5 14.5v6M14.5 17.5h6" />,
  "IconListPlus",
);

export const IconExternalLink = createIcon(
  <>
    <path d="M13.5 4.5h6v6M19.5 4.5 11 13" />
    <path d="M17.5 14v4a1.5 1.5 0 0 1-1.5 1.5H6A1.5 1.5 0 0 1 4.5 18V8A1.5 1.5 0 0 1 6 6.5h4" />
  </>,
  "IconExternalLink",
);

export const IconLink = createIcon(
  <>
    <path d="M10 14a3.5 3.5 0 0 0 5 0l3-3a3.5 3.5 0 0 0-5-5l-1 1" />
    <path d="M14 10a3.5 3.5 0 0 0-5 0l-3 3a3.5 3.5 0 0 0 5 5l1-1" />
  </>,
  "IconLink",
);

export const IconInfo = createIcon(
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 11v5.5M12 7.7v.2" />
  </>,
  "IconInfo",
);

export const IconUsers = createIcon(
  <>
    <circle cx="9" cy="8.5" r="3.5" />
    <path d="M2.5 19.5a6.5 6.5 0 0 1 13 0M16 5.2a3.5 3.5 0 0 1 0 6.6M18 14.2a6.5 6.5 0 0 1 3.5 5.3" />
  </>,
  "IconUsers",
);

export const IconRefresh = createIcon(
  <>
    <path d="M19.5 12a7.5 7.5 0 0 1-13.2 4.9M4.5 12a7.5 7.5 0 0 1 13.2-4.9" />
    <path d="M18 3.5v3.8h-3.8M6 20.5v-3.8h3.8" />
  </>,
  "IconRefresh",
);

export const IconArrowBackUp = createIcon(<path d="M9 14 4.5 9.5 9 5M4.5 9.5H15a4.5 4.5 0 0 1 0 9h-2" />, "IconArrowBackUp");

export const IconCopy = createIcon(
  <>
    <rect x="8.5" y="8.5" width="11" height="11" rx="2" />
    <path d="M15.5 8.5V6a1.5 1.5 0 0 0-1.5-1.5H6A1.5 1.5 0 0 0 4.5 6v8A1.5 1.5 0 0 0 6 15.5h2.5" />
  </>,
  "IconCopy",
);

export const IconFilePlus = createIcon(
  <>
    <path d="M13.5 3.5H7a1 1 0 0 0-1 1v15a1 1 0 0 0 1 1h10.5a1 1 0 0 0 1-1V8.5z" />
    <path d="M13.5 3.5v5h5M12.25 11.5v6M9.25 14.5h6" />
  </>,
  "IconFilePlus",
);

export const IconChevronDown = createIcon(<path d="m6 9.5 6 6 6-6" />, "IconChevronDown");

export const IconChartBar = createIcon(
  <>
    <path d="M4 20h16" />
    <path d="M6.5 16.5v-5M11 16.5V6.5M15.5 16.5v-7M20 16.5V9" />
  </>,
  "IconChartBar",
);

/** A receipt: what the channel's sold posts brought. */
export const IconReceipt = createIcon(
  <>
    <path d="M6 3h12v18l-2.5-1.5L13 21l-2.5-1.5L8 21l-2-1.2z" />
    <path d="M9 8h6M9 12h6M9 16h3" />
  </>,
  "IconReceipt",
);

export const IconArrowUp = createIcon(<path d="M12 19V5M6 11l6-6 6 6" />, "IconArrowUp");

/** The Pressa mark: a folded sheet that is also a paper plane. */
export function PressaMark({ size = 28, inverted = false }: { size?: number; inverted?: boolean }) {
  const tile = inverted ? "#fff" : "var(--mantine-primary-color-filled)";
  const plane = inverted ? "var(--mantine-primary-color-filled)" : "#fff";
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill={tile} />
      <path d="M8 15.5 24 8.5l-4.5 15-4.3-4.6z" fill={plane} />
      <path d="m15.2 18.9-1.4 4.6-1.3-5.9L24 8.5z" fill={plane} opacity="0.7" />
    </svg>
  );
}

export const IconCalendarMinus = createIcon(
  <>
    <rect x="4" y="5.5" width="16" height="14.5" rx="2" />
    <path d="M4 10h16M8.5 3.5v4M15.5 3.5v4M9.5 15h5" />
  </>,
  "IconCalendarMinus",
);

export const IconPin = createIcon(
  <path d="M9 4h6l-1 5 3 3v2H7v-2l3-3-1-5ZM12 14v6" />,
  "IconPin",
);

export const IconHeart = createIcon(
  <path d="M12 19.5s-7-4.3-7-9.5A4 4 0 0 1 12 7.6 4 4 0 0 1 19 10c0 5.2-7 9.5-7 9.5Z" />,
  "IconHeart",
);

export const IconBellOff = createIcon(
  <>
    <path d="M9.5 19.5a2.5 2.5 0 0 0 5 0M8.3 5.1A5.5 5.5 0 0 1 17.5 9.5v3.2l1.2 2.3M16 16.5H5.5l1.5-2.8V9.5c0-.5.1-1 .2-1.5" />
    <path d="M4 4l16 16" />
  </>,
  "IconBellOff",
);
