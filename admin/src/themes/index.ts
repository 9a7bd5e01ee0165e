import type { Theme } from '@mui/material';
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/** The product's colours (specification §9). They fill buttons, bars, dots and indicators. */
export const colors = { main: '#009688', danger: '#E53E3E', success: '#48BB78' };

/**
 * Text in those colours, where the brand colour itself is too light or too dark to read (WCAG AA: 4.5:1 for
 * text). Teal #009688 on white is 3.67:1 and on the dark paper 3.26:1; #E53E3E on white is 4.13:1 and on the
 * dark paper 2.91:1. Text on a teal fill is black (5.72:1; white is 3.67:1); text on a red fill is white on a
 * deeper red (5.47:1). A state's words (a chip in a list) take the shade of its tone.
 * Dark mode's shades are read on the paper #2d3748, on a selected row (#3e4757) and in a focused filled field
 * (#404958), the lightest of the three (where #4DB6AC was 3.72:1).
 */
export const textColors = {
  // On white: 6.61:1, 7.53:1, 6.73:1, 6.53:1, 5.42:1; above 4.5:1 on a selected row (#f5f5f5) and on a focused,
  // hovered filled field (#ebebec: 5.55:1 for the teal, where #00796B was 4.46:1).
  light: { primary: '#00695C', error: '#9B2C2C', success: '#276749', warning: '#9C4221', info: '#2B6CB0' },
  // On #404958, the least of the three: 4.87:1, 5.29:1, 6.21:1, 6.4:1, 5.29:1.
  dark: { primary: '#80CBC4', error: '#FEB2B2', success: '#9AE6B4', warning: '#FBD38D', info: '#90CDF4' },
};
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
