import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

export const colors = { main: '#009688', danger: '#E53E3E', success: '#48BB78' };

const palette = {
  primary: { main: colors.main, contrastText: '#ffffff' },
  secondary: { main: colors.main },
  error: { main: colors.danger },
  success: { main: colors.success },
};

// Buttons and tabs show their labels exactly as written.
const components = {
  MuiButton: { styleOverrides: { root: { textTransform: 'none' as const } } },
  MuiTab: { styleOverrides: { root: { textTransform: 'none' as const } } },
};

export const lightTheme: RaThemeOptions = {
  ...defaultLightTheme,
  palette: { ...defaultLightTheme.palette, ...palette, mode: 'light' },
  components: { ...defaultLightTheme.components, ...components },
};

export const darkTheme: RaThemeOptions = {
  ...defaultDarkTheme,
  palette: {
    ...defaultDarkTheme.palette,
    ...palette,
    mode: 'dark',
    background: { default: '#1a202c', paper: '#2d3748' },
  },
  components: { ...defaultDarkTheme.components, ...components },
};
