import { Alert, type CSSVariablesResolver, createTheme } from '@mantine/core';

/** Dark enough shades for WCAG AA contrast on white (axe's color-contrast rule): primary teal 9. */
export const theme = createTheme({
  primaryColor: 'teal',
  primaryShade: 9,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'sm',
  components: {
    // A light alert's title and text in near-black: its colour's own shades on the tinted
    // background stay below 4.5:1 (teal 9 gives 4.4:1); the tint and the words carry the meaning.
    Alert: Alert.extend({ vars: () => ({ root: { '--alert-color': 'var(--mantine-color-dark-9)' } }) }),
  },
});

/** Mantine's "dimmed" text (gray 6) is 3.3:1 on white and its error red 3.9:1; gray 7 and red 9 pass AA. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
