import { createTheme } from '@mantine/core';

/** Dark enough primary shades for WCAG AA contrast on white (axe's color-contrast rule). */
export const theme = createTheme({
  primaryColor: 'teal',
  primaryShade: 8,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'sm',
});
