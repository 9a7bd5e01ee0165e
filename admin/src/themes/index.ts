import type { Theme } from '@mui/material';
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

import { colors, textColors } from './colors';

export { colors, textColors };

declare module '@mui/material/styles' {
  interface Palette {
    /** The text shades of the product's colours (./colors.ts), for `sx` colours such as 'textShade.error'. */
    textShade: (typeof textColors)[keyof typeof textColors];
  }
  interface PaletteOptions {
    textShade?: (typeof textColors)[keyof typeof textColors];
  }
}

const onTeal = '#000000';
const dangerFill = { main: '#C53030', hover: '#9B2C2C' };

type Mode = keyof typeof textColors;
type OwnerState = { ownerState: Record<string, unknown> };

function palette(mode: Mode) {
  return {
    mode,
    contrastThreshold: 4.5,
    primary: { main: colors.main, dark: '#00897B', contrastText: onTeal },
    secondary: { main: colors.main, dark: '#00897B', contrastText: onTeal },
    error: { main: colors.danger, dark: dangerFill.main, light: '#FC8181', contrastText: '#ffffff' },
    success: { main: colors.success, contrastText: '#000000' },
    textShade: textColors[mode],
  };
}

function components(mode: Mode) {
  const text = textColors[mode];
  return {
    // Buttons and tabs show their labels exactly as written; text and outlined buttons write in the text shade.
    MuiButton: {
      styleOverrides: {
        root: ({ ownerState }: OwnerState) => ({
          textTransform: 'none' as const,
          ...((ownerState.color === 'primary' || ownerState.color === 'secondary') && {
            '--variant-textColor': text.primary,
            '--variant-outlinedColor': text.primary,
          }),
          ...(ownerState.color === 'error' && {
            '--variant-textColor': text.error,
            '--variant-outlinedColor': text.error,
            '--variant-containedBg': dangerFill.main,
            '&:hover': { '--variant-containedBg': dangerFill.hover },
          }),
        }),
      },
    },
    // An aria-label given to a checkbox names its <input>, the element a screen reader announces: MUI would put it
    // on the wrapping <span>, which has no role to be named (react-admin's row checkboxes are given one this way).
    MuiCheckbox: {
      defaultProps: {
        slotProps: {
          root: { 'aria-label': undefined },
          input: (ownerState: { 'aria-label'?: string }) => ({ 'aria-label': ownerState['aria-label'] }),
        },
      },
    },
    // The delete confirmation's button (react-admin's Confirm): red words on the dialog, in the readable shade.
    RaConfirm: {
      styleOverrides: { root: { '& .RaConfirm-confirmWarning': { color: text.error } } },
    },
    MuiTab: {
      styleOverrides: { root: { textTransform: 'none' as const, '&.Mui-selected': { color: text.primary } } },
    },
    MuiTypography: {
      variants: [
        { props: { color: 'primary' }, style: { color: text.primary } },
        { props: { color: 'secondary' }, style: { color: text.primary } },
        { props: { color: 'error' }, style: { color: text.error } },
      ],
    },
    MuiLink: { styleOverrides: { root: { color: text.primary } } },
    // A reference in a list (a run's client) links to its record: its words, the field drawn inside the link
    // included, in the readable shade (the brand teal is 3.67:1 on white and 3.26:1 on the dark paper).
    RaReferenceField: {
      styleOverrides: {
        root: { '& .RaReferenceField-link, & .RaReferenceField-link > *': { color: text.primary } },
      },
    },
    MuiFormLabel: {
      styleOverrides: {
        root: { '&.Mui-focused': { color: text.primary }, '&.Mui-error': { color: text.error } },
      },
    },
    MuiFormHelperText: { styleOverrides: { root: { '&.Mui-error': { color: text.error } } } },
    // react-admin's keyboard-only 'Skip to content' would write the fill's text colour on the page background.
    RaSkipNavigationButton: {
      styleOverrides: { root: ({ theme }: { theme: Theme }) => ({ color: theme.palette.text.primary }) },
    },
    // Toasts: a filled alert writes on its colour.
    MuiAlert: {
      styleOverrides: {
        root: ({ ownerState }: OwnerState) =>
          ownerState.variant !== 'filled'
            ? {}
            : ownerState.severity === 'error'
              ? { backgroundColor: dangerFill.main, color: '#ffffff' }
              : ownerState.severity === 'success'
                ? { backgroundColor: colors.success, color: '#000000' }
                : {},
      },
    },
  };
}

export const lightTheme: RaThemeOptions = {
  ...defaultLightTheme,
  palette: { ...defaultLightTheme.palette, ...palette('light') },
  components: { ...defaultLightTheme.components, ...components('light') },
};

export const darkTheme: RaThemeOptions = {
  ...defaultDarkTheme,
  palette: {
    ...defaultDarkTheme.palette,
    ...palette('dark'),
    background: { default: '#1a202c', paper: '#2d3748' },
  },
  components: {
    ...defaultDarkTheme.components,
    ...components('dark'),
    // Raised surfaces keep the paper colour: MUI's lighter overlay would take the text below 4.5:1.
    MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
  },
};
