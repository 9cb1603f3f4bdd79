// Loaded only when the visitor opens the emoji picker (a separate chunk of the build).
// Plain data with no imports, so the chunk never pulls code back from widget.js.

const LIST = '😀😁😂😃😄😅😆😇😈😉😊😋😌😍😎😏😐😑😒😓😔😕😖😗😘😙😚😛😜😝😞😟😠😡😢😣😤😥😦😧😨😩😪😫😬😭😮😯😰😱😲😳😴😵😶😷🙂🙃🙄🤗🤔🤨🤩🥰🥳😎🤓👍👎👏🙌🙏👋🤝💪✌👌🤞👆👇👉👈❤🧡💛💚💙💜🖤💔✨🔥💯⭐🌟🎉🎊🎁✅❌❓❗💡📌📎📝📅📧📞💻📱🛒💳💰🚀⏰🔒🔑☀🌤🌈☔❄🌍🌻🌲🐶🐱🦊🐻🐼🦄🍕🍔🍟🍣🍰🍪☕🍵🍷🍺';

/** The emoji the picker offers, one string each. */
export const EMOJIS: string[] = [...new Set(LIST)];
